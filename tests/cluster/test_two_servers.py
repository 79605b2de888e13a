"""Scale-out for real: two Daphne processes and a scheduler on PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

from accounts.models import User
from accounts.services import create_player
from games.engine import Game as EngineGame
from games.live import owners
from games.models import Game, Table
from games.table import tables
from tests.support.processes import Processes

VERSION = re.compile(r'id="game(?:-attrs)?"[^>]*data-version="(\d+)"')

pytestmark = [pytest.mark.cluster, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    running = Processes(tmp_path)
    yield running
    running.stop_all()
    connection.close()


def session_cookie(user: Any) -> str:
    store = SessionStore()
    store["_auth_user_id"] = str(user.pk)
    store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    store["_auth_user_hash"] = user.get_session_auth_hash()
    store.create()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


async def open_socket(port: int, table: Table, cookie: str) -> Any:
    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/table/{table.pk}/",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
    )


async def frame_with_version(sock: Any, at_least: int, seconds: float = 20.0) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame = await asyncio.wait_for(sock.recv(), timeout=max(0.1, deadline - time.monotonic()))
        match = VERSION.search(frame)
        if match and int(match.group(1)) >= at_least:
            return int(match.group(1))
    raise AssertionError(f"no frame of version {at_least} or later")


def the_game(table: Table) -> Game:
    return Game.objects.get(table=table, status=Game.Status.RUNNING)


async def in_thread(function: Any, *args: Any) -> Any:
    """The ORM from a worker thread, whose connection is closed after use."""

    def call() -> Any:
        try:
            return function(*args)
        finally:
            connection.close()

    return await asyncio.get_running_loop().run_in_executor(None, call)


def two_players_at_a_table(name: str, move_time: int) -> tuple[str, str, Table]:
    """Anna's table for two and the session cookies of anna and boris, who has not sat down."""
    anna = create_player("anna", "a-long-enough-password-42")
    boris = create_player("boris", "a-long-enough-password-42")
    table = tables.create_table(
        anna, name=name, stake=10, seats=2, move_time=move_time, bots_allowed=True, private=False
    )
    return session_cookie(anna), session_cookie(boris), table


def join_as(table: Table, username: str) -> None:
    tables.join(table.pk, User.objects.get(username=username))


def auto_moves(game: Game) -> int:
    return game.events.filter(data__auto=True).count()


def test_two_servers_and_a_scheduler_play_one_game_and_survive_kill_9(processes):
    anna_cookie, boris_cookie, table = two_players_at_a_table("Cluster", move_time=10)
    first, second = processes.server("first"), processes.server("second")
    processes.scheduler("scheduler")

    async def scenario() -> None:
        anna_socket = await open_socket(first, table, anna_cookie)
        boris_socket = await open_socket(second, table, boris_cookie)
        await in_thread(join_as, table, "boris")
        await frame_with_version(boris_socket, 1)
        game = await in_thread(the_game, table)
        engine = EngineGame.from_dict(game.state)
        lead_socket, other_socket = (
            (anna_socket, boris_socket) if engine.attacker == 0 else (boris_socket, anna_socket)
        )
        card = str(min(engine.hands[engine.attacker], key=lambda c: (c.rank, c.suit)))
        await lead_socket.send(f'{{"action": "lead", "card": "{card}", "version": {game.version}}}')
        await frame_with_version(other_socket, game.version + 1)

        processes.kill("scheduler")
        processes.scheduler("scheduler again")
        led = await in_thread(the_game, table)
        await frame_with_version(lead_socket, led.version + 1, seconds=25)
        assert await in_thread(auto_moves, led) == 1

        processes.kill("first")
        back = await open_socket(second, table, anna_cookie)
        current = (await in_thread(the_game, table)).version
        assert await frame_with_version(back, current) >= current
        for sock in (back, boris_socket):
            await sock.close()

    asyncio.run(scenario())


def lead_events(game: Game) -> int:
    return game.events.filter(type="lead").count()


def test_a_move_whose_owner_was_killed_is_carried_out_by_the_sockets_server(processes):
    anna_cookie, boris_cookie, table = two_players_at_a_table("Owner", move_time=30)
    server = processes.server("server")
    processes.scheduler("owner")

    async def scenario() -> None:
        anna_socket = await open_socket(server, table, anna_cookie)
        boris_socket = await open_socket(server, table, boris_cookie)
        await in_thread(join_as, table, "boris")
        for sock in (anna_socket, boris_socket):
            await frame_with_version(sock, 1)
        game = await in_thread(the_game, table)
        engine = EngineGame.from_dict(game.state)
        lead_socket, other_socket = (
            (anna_socket, boris_socket) if engine.attacker == 0 else (boris_socket, anna_socket)
        )
        processes.kill("owner")
        card = str(min(engine.hands[engine.attacker], key=lambda c: (c.rank, c.suit)))
        sent = time.monotonic()
        await lead_socket.send(f'{{"action": "lead", "card": "{card}", "version": {game.version}}}')
        await frame_with_version(other_socket, game.version + 1, seconds=10)
        # Sent to the owner the frames named, and carried out here once it never answered.
        assert owners.TAKE_BACK_SECONDS <= time.monotonic() - sent < 5
        assert await in_thread(lead_events, game) == 1
        for sock in (anna_socket, boris_socket):
            await sock.close()

    asyncio.run(scenario())
