"""What every socket guarantees: it leaves its groups whatever happens, closes with an
application code after saying why, counts messages per player as they arrive, and sends
nothing once it is closing."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.engine import Game as EngineGame
from games.engine import Lead
from games.live import broadcast
from games.live.consumers import LobbyConsumer, TableConsumer
from games.live.sockets import (
    ADDRESS_CONNECTS,
    ANONYMOUS_ADDRESS_MESSAGES,
    CONNECTS,
    SERVER_ERROR,
    TOO_MANY_MESSAGES,
    UNEXPECTED_MESSAGE,
)
from games.table import play
from tests.support.sockets import (
    Socket,
    connected,
    group_members,
    running_game,
    two_player_table,
    until_closed,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("ledger_audit", "in_memory_layer"),
]


def user_at(table: Any, position: int) -> Any:
    return table.seat_set.get(position=position).player


async def test_flooding_closes_the_socket_with_4429_after_saying_why(
    anna, boris, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    socket = await connected(sockets, table, anna)
    for _ in range(101):
        await socket.send_raw("{}")
    frames, code = await until_closed(socket)
    assert code == TOO_MANY_MESSAGES
    assert "Too many messages" in frames[-1] and 'id="notice"' in frames[-1]


async def test_a_flooder_who_reconnects_keeps_the_same_budget(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    first = await connected(sockets, table, anna)
    for _ in range(100):
        await first.send_raw("{}")
    await first.drain()
    second = await connected(sockets, table, anna)
    await second.send_raw("{}")
    _frames, code = await until_closed(second)
    assert code == TOO_MANY_MESSAGES


async def watcher_from(sockets: list[Socket], table: Any, address: str) -> Socket:
    socket = Socket(table, AnonymousUser())
    socket.communicator.scope["client"] = (address, 5000)
    assert (await socket.connect())[0]
    sockets.append(socket)
    await socket.next()
    return socket


async def test_each_anonymous_socket_has_a_budget_of_its_own(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    flooder = await watcher_from(sockets, table, "10.0.0.1")
    neighbour = await watcher_from(sockets, table, "10.0.0.1")
    for _ in range(101):
        await flooder.send_raw("{}")
    _frames, code = await until_closed(flooder)
    assert code == TOO_MANY_MESSAGES
    await neighbour.send_raw("{}")
    assert "Unknown action" in await neighbour.next()


async def test_anonymous_sockets_from_one_address_share_a_larger_budget(
    anna, boris, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    watchers = [await watcher_from(sockets, table, "10.0.0.1") for _ in range(5)]
    for watcher in watchers[:4]:
        for _ in range(75):
            await watcher.send_raw("{}")
        await watcher.drain()
    last = watchers[4]
    for _ in range(1 + ANONYMOUS_ADDRESS_MESSAGES.count - 4 * 75):
        await last.send_raw("{}")
    _frames, code = await until_closed(last)
    assert code == TOO_MANY_MESSAGES
    other = await watcher_from(sockets, table, "10.9.9.9")
    await other.send_raw("{}")
    assert "Unknown action" in await other.next()


async def test_connects_are_counted_per_player(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    for _ in range(CONNECTS.count):
        socket = await connected(sockets, table, anna)
        await socket.close()
        sockets.remove(socket)
    refused = Socket(table, anna)
    assert (await refused.connect())[0]
    frames, code = await until_closed(refused)
    assert code == TOO_MANY_MESSAGES and "Too many connections" in frames[-1]
    assert await connected(sockets, table, boris)


async def test_connects_are_counted_per_address(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    for _ in range(ADDRESS_CONNECTS.count):
        socket = await watcher_from(sockets, table, "10.0.0.1")
        await socket.close()
        sockets.remove(socket)
    refused = Socket(table, AnonymousUser())
    refused.communicator.scope["client"] = ("10.0.0.1", 5000)
    assert (await refused.connect())[0]
    _frames, code = await until_closed(refused)
    assert code == TOO_MANY_MESSAGES
    assert await watcher_from(sockets, table, "10.9.9.9")


async def test_messages_are_counted_when_they_arrive_not_when_they_are_processed(
    anna, boris, frozen_clock, sockets, monkeypatch
):
    """A player at human speed whose messages wait behind a slow move is not cut off when
    they are all processed at once."""
    table = await two_player_table(anna, boris, frozen_clock)
    socket = await connected(sockets, table, anna)
    released = threading.Event()
    real = play.act_at_table

    def slow_first_move(*args: Any) -> Any:
        released.wait(10)
        return real(*args)

    monkeypatch.setattr(play, "act_at_table", slow_first_move)
    game = await running_game(table)
    await socket.send(action="take", version=game.version)
    await asyncio.sleep(0.05)
    for _ in range(150):
        frozen_clock.advance(0.5)
        await socket.send_raw("{}")
        await asyncio.sleep(0)
    released.set()
    frames = []
    while not await socket.communicator.receive_nothing(timeout=0.3):
        output = await socket.communicator.receive_output()
        assert output["type"] == "websocket.send", output
        frames.append(output["text"])
    assert sum("Unknown action" in frame for frame in frames) == 150


async def test_nothing_is_sent_once_the_socket_is_closing(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    socket = await connected(sockets, table, anna)
    for _ in range(101):
        await socket.send_raw("{}")
    await until_closed(socket)
    await database_sync_to_async(broadcast.unseated)(table.pk, anna.pk, "You left.")
    await socket.send_raw("{}")
    assert await socket.communicator.receive_nothing(timeout=0.2)


async def test_a_refusal_for_a_player_who_has_gone_is_not_sent(
    anna, boris, frozen_clock, sockets, monkeypatch
):
    table = await two_player_table(anna, boris, frozen_clock)
    socket = await connected(sockets, table, anna)
    released = threading.Event()
    real = play.act_at_table

    def slow_move(*args: Any) -> Any:
        released.wait(10)
        return real(*args)

    monkeypatch.setattr(play, "act_at_table", slow_move)
    version = (await running_game(table)).version
    await socket.send(action="take", version=version)
    await socket.send(action="take", version=version + 9)
    await asyncio.sleep(0.05)
    await socket.communicator.send_input({"type": "websocket.disconnect", "code": 1001})
    released.set()
    await socket.communicator.wait(timeout=3)
    sent = []
    while not socket.communicator.output_queue.empty():
        sent.append(socket.communicator.output_queue.get_nowait())
    frames = [output["text"] for output in sent if output["type"] == "websocket.send"]
    assert not [frame for frame in frames if not frame.startswith('<span id="presence-')]
    sockets.remove(socket)


async def test_a_move_on_a_version_the_socket_has_not_shown_is_refused(
    anna, boris, frozen_clock, sockets, monkeypatch
):
    """A take stamped with the next version, processed after the attacker's lead made
    that version, would take cards its sender never saw."""
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    engine = EngineGame.from_dict(game.state)
    defender = await database_sync_to_async(user_at)(table, engine.defender)
    attacker = await database_sync_to_async(user_at)(table, engine.attacker)
    socket = await connected(sockets, table, defender)
    released = threading.Event()
    real = play.act_at_table
    calls = []

    def slow_first_move(*args: Any) -> Any:
        calls.append(args)
        if len(calls) == 1:
            released.wait(10)
        return real(*args)

    monkeypatch.setattr(play, "act_at_table", slow_first_move)
    await socket.send(action="pass", version=game.version)
    await asyncio.sleep(0.05)
    await socket.send(action="take", version=game.version + 1)
    lead = Lead((engine.hands[engine.attacker][0],))
    await database_sync_to_async(play.act)(game.pk, attacker, lead, game.version)
    released.set()
    frames = await socket.drain()
    while not await socket.communicator.receive_nothing(timeout=0.3):
        frames += await socket.drain()
    after = await running_game(table)
    assert after.version == game.version + 1, "the take was applied"
    assert any("does not match the game" in frame for frame in frames)


async def test_a_socket_that_fails_leaves_its_groups_and_says_why(
    anna, boris, frozen_clock, sockets, monkeypatch
):
    table = await two_player_table(anna, boris, frozen_clock)
    socket = await connected(sockets, table, anna)
    assert group_members(table.pk) == 2

    async def broken(self: Any, event: dict[str, Any]) -> None:
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(TableConsumer, "table_presence", broken)
    await database_sync_to_async(broadcast.presence_changed)(table.pk, 1, True)
    frames, code = await until_closed(socket)
    assert code == SERVER_ERROR and "Something went wrong" in frames[-1]
    await socket.communicator.wait(timeout=3)
    sockets.remove(socket)
    assert group_members(table.pk) == 0


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class CountingHandler(logging.Handler):
    """Counts the failures logged, keeping none of them (the memory is what is measured)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


async def test_a_storm_of_failing_sockets_leaves_no_channel_behind(
    anna, boris, frozen_clock, sockets, monkeypatch
):
    table = await two_player_table(anna, boris, frozen_clock)

    async def broken(self: Any, event: dict[str, Any]) -> None:
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(TableConsumer, "table_presence", broken)

    async def storm(count: int) -> None:
        crowd = []
        for number in range(count):
            socket = Socket(table, AnonymousUser())
            socket.communicator.scope["client"] = (f"10.1.{number // 200}.{number % 200}", 5000)
            assert (await socket.communicator.connect(timeout=10))[0]
            await socket.next(timeout=10)
            crowd.append(socket)
        await database_sync_to_async(broadcast.presence_changed)(table.pk, 1, True)
        for socket in crowd:
            await until_closed(socket, timeout=10)
            await socket.communicator.wait(timeout=10)
        big = {"*": "x" * 20_000}
        for _ in range(30):
            await get_channel_layer().group_send(
                broadcast.public_group(table.pk), {"type": "table.html", "html": big}
            )

    failures = CountingHandler()
    monkeypatch.setattr(logging.getLogger("games.live.sockets"), "propagate", False)
    logging.getLogger("games.live.sockets").addHandler(failures)

    async def settled() -> int:
        await asyncio.sleep(0.2)
        gc.collect()
        return resident_bytes()

    try:
        await storm(50)
        before = await settled()
        await storm(250)
        after = await settled()
    finally:
        logging.getLogger("games.live.sockets").removeHandler(failures)
    assert failures.count == 300
    assert group_members(table.pk) == 0
    assert not get_channel_layer().channels
    assert after <= before * 1.10, (before, after)


async def test_the_lobby_says_it_takes_no_messages_and_closes_with_4400():
    communicator = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
    communicator.scope["user"] = AnonymousUser()
    communicator.scope["cookies"] = {"django_language": "en"}
    assert (await communicator.connect())[0]
    await communicator.send_to(text_data=json.dumps({"action": "ping"}))
    notice = await communicator.receive_from()
    assert 'id="notice"' in notice and "takes no messages" in notice
    closed = await communicator.receive_output()
    assert closed == {"type": "websocket.close", "code": UNEXPECTED_MESSAGE}
    await communicator.wait()
    assert not get_channel_layer().groups.get(broadcast.LOBBY_GROUP)


@pytest.mark.parametrize(
    "message",
    [
        "[" * 1000 + "]" * 1000,
        '{"action": "ping", "version": Infinity}',
        '{"action": "take", "version": 1e400}',
    ],
)
async def test_an_anonymous_client_cannot_break_the_parser(
    anna, boris, frozen_clock, sockets, message
):
    table = await two_player_table(anna, boris, frozen_clock)
    socket = await connected(sockets, table, AnonymousUser())
    await socket.send_raw(message)
    notice = await socket.next()
    assert 'id="notice"' in notice
    assert await socket.communicator.receive_nothing(timeout=0.1)


async def test_a_deactivated_players_sockets_are_told_at_once_and_closed(
    anna, boris, frozen_clock, sockets
):
    from accounts.models import User
    from staff import operations

    sofia = await database_sync_to_async(User.objects.create_user)(
        "sofia", password="runs-the-site-well", is_staff=True
    )
    table = await two_player_table(anna, boris, frozen_clock)
    at_table = await connected(sockets, table, boris)
    lobby = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
    lobby.scope["user"] = boris
    lobby.scope["cookies"] = {"django_language": "en"}
    assert (await lobby.connect())[0]
    await database_sync_to_async(operations.deactivate)(sofia, boris, "chip farming")
    said = "The staff deactivated your account: chip farming"
    frames, code = await until_closed(at_table)
    assert code == 4403 and any(said in frame for frame in frames)
    while (output := await lobby.receive_output(timeout=10))["type"] != "websocket.close":
        frames.append(output["text"])
    assert output["code"] == 4403 and said in frames[-1]
