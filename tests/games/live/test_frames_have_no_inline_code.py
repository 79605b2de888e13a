"""What the sockets send is swapped into pages under the Content Security Policy: no
frame holds an inline script, event handler, style attribute or `javascript:` URL."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from accounts.services import create_player
from games.engine import Game as EngineGame
from games.live.consumers import LobbyConsumer
from games.models import Game, Table
from games.table import play, tables
from staff import operations
from tests.support.inline_code import inline_code
from tests.support.sockets import connected, encode, move_of, two_player_table
from tests.support.tables import Clock, open_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("ledger_audit")]


@pytest.fixture
def sofia(db: None) -> User:
    staff = create_player("sofia", "sofia-runs-the-site")
    User.objects.filter(pk=staff.pk).update(is_staff=True)
    return User.objects.get(pk=staff.pk)


@pytest.fixture(autouse=True)
def roomy_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 5000}}
    }


def assert_no_inline_code(frames: list[str]) -> None:
    assert frames
    for frame in frames:
        assert inline_code(frame) == [], frame


async def test_a_whole_game_over_the_table_socket_sends_no_inline_code(
    anna, boris, clara, sofia, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    anna_socket = await connected(sockets, table, anna)
    boris_socket = await connected(sockets, table, boris)
    spectator = await connected(sockets, table, clara)
    await anna_socket.send(action="chat", text="удачи <b>всем</b>")
    await anna_socket.send(action="take", version=999)
    await anna_socket.send_raw("{not json")
    await database_sync_to_async(operations.notify_table)(sofia, table.pk, "Restart <i>soon</i>")
    await database_sync_to_async(operations.post_site_notice)(sofia, "Maintenance at 22:00")
    await database_sync_to_async(play_out)(table, {anna.pk: anna, boris.pk: boris}, frozen_clock)
    await anna_socket.send(action="play-again")
    await boris_socket.close()
    for socket in (anna_socket, boris_socket, spectator):
        await socket.drain()
    frames = anna_socket.frames + spectator.frames
    for sign in ('class="chat-line', "Restart &lt;i&gt;soon", "Maintenance at 22:00", "receipt"):
        assert any(sign in frame for frame in frames), sign
    assert_no_inline_code(frames + boris_socket.frames)


def play_out(table: Table, players: dict[int, User], frozen_clock: Clock) -> None:
    """The players' legal moves, or the deadline when nobody can move, to the game's end
    (the sockets' inboxes hold every frame meanwhile)."""
    rng = random.Random(3)
    for _ in range(3000):
        game = table.games.latest("started_at")
        if game.status != Game.Status.RUNNING:
            return
        engine = EngineGame.from_dict(game.state)
        seats = {
            seat.position: seat.player_id
            for seat in table.seat_set.all()
            if seat.player_id is not None
        }
        movers = [seat for seat in seats if engine.legal_actions(seat)]
        if movers:
            seat = rng.choice(movers)
            action = rng.choice(engine.legal_actions(seat))
            command = move_of({**encode(action), "version": game.version})
            play.act(game.pk, players[seats[seat]], command, game.version)
        else:
            frozen_clock.past_deadline(game)
            play.tick(game.pk)
    raise AssertionError("the game did not end")


async def test_the_lobby_socket_sends_rows_with_no_inline_code(anna, boris):
    communicator = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
    communicator.scope["user"] = anna
    communicator.scope["cookies"] = {"django_language": "en"}
    ok, _code = await communicator.connect()
    assert ok
    table = await database_sync_to_async(open_table)(anna, stake=10)
    await database_sync_to_async(tables.join)(table.pk, boris)
    frames = []
    while not await communicator.receive_nothing(timeout=0.2):
        frames.append(await communicator.receive_from())
    await communicator.disconnect()
    assert any(f'data-table-id="{table.pk}"' in frame for frame in frames)
    assert_no_inline_code(frames)
