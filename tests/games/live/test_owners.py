"""A game's owner: the moves of its socket go to the process that writes the game, and come
back to the socket's own server when that process never answers."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import clock
from games.engine import Game as EngineGame
from games.live import broadcast, metrics, owners
from games.live.frames import OwnerMove
from games.models import Game, Table
from games.table import play
from tests.support.sockets import Socket, connected, running_game, two_player_table
from tests.support.trips import recording_trips

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("ledger_audit", "in_memory_layer"),
]

OWNER = "owner.test-host-1"


@dataclass
class Owned:
    """A running game, its attacker's socket told by a frame that `OWNER` owns the game, and
    the channel that hears what is sent to `OWNER`."""

    table: Table
    game: Game
    socket: Socket
    owner_inbox: str
    lead: dict[str, Any]
    refused_take: dict[str, Any]


@pytest.fixture
async def owned(anna, boris, frozen_clock, sockets) -> Owned:
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    engine = EngineGame.from_dict(game.state)
    attacker = await database_sync_to_async(
        lambda: table.seat_set.get(position=engine.attacker).player
    )()
    socket = await connected(sockets, table, attacker)
    layer = get_channel_layer()
    inbox = await layer.new_channel()
    await layer.group_add(OWNER, inbox)
    await layer.group_send(
        broadcast.seat_group(table.pk, engine.attacker),
        {
            "type": "table.html",
            "html": {"*": "owned"},
            "version": game.version,
            "game": game.pk,
            "base": None,
            "owner": OWNER,
        },
    )
    assert await next_frame(socket) == "owned"
    card = str(min(engine.hands[engine.attacker], key=lambda c: (c.rank, c.suit)))
    return Owned(
        table,
        game,
        socket,
        inbox,
        lead={"action": "lead", "card": card, "version": game.version},
        refused_take={"action": "take", "version": game.version},
    )


async def next_frame(socket: Socket) -> str:
    """The next frame that is not the table seeing a player arrive."""
    frame = await socket.next()
    while frame.startswith('<span id="presence-'):
        frame = await socket.next()
    return frame


async def version_of(game: Game) -> int:
    return (await database_sync_to_async(Game.objects.get)(pk=game.pk)).version


@database_sync_to_async
def owner_moves(outcome: str) -> float:
    return metrics.REGISTRY.get_sample_value("durak_owner_moves_total", {"outcome": outcome}) or 0


async def test_a_move_at_an_owned_game_goes_to_its_owner_not_to_the_database(owned):
    await owned.socket.send(**owned.lead)
    move: OwnerMove = await get_channel_layer().receive(owned.owner_inbox)
    assert move["type"] == "owner.move" and move["game"] == owned.game.pk
    assert move["user_id"] == owned.socket.communicator.scope["user"].pk
    assert await version_of(owned.game) == owned.game.version


async def test_the_owner_carries_the_move_out_and_the_page_gets_its_changes_and_no_notice(owned):
    await owned.socket.send(**owned.lead)
    move = await get_channel_layer().receive(owned.owner_inbox)
    assert await database_sync_to_async(owners.carry_out)(move)
    assert await version_of(owned.game) == owned.game.version + 1
    changes = await next_frame(owned.socket)
    assert f'data-base="{owned.game.version}"' in changes
    assert await owned.socket.communicator.receive_nothing(timeout=owners.TAKE_BACK_SECONDS + 0.3)
    assert await version_of(owned.game) == owned.game.version + 1


async def test_the_owners_refusal_reaches_the_player_in_their_language(owned):
    await owned.socket.send(**owned.refused_take)
    move = await get_channel_layer().receive(owned.owner_inbox)
    assert move["language"] == "en"
    assert not await database_sync_to_async(owners.carry_out)(move)
    notice = await next_frame(owned.socket)
    assert 'id="notice"' in notice and 'href="/rules/#r' in notice
    assert await version_of(owned.game) == owned.game.version


@pytest.mark.parametrize(
    ("text", "someone_else", "reason"),
    [
        ("{", False, "JSON"),
        ('{"action": "ping"}', False, "not a move"),
        ('{"action": "take", "version": 1}', True, "You do not play in this game."),
    ],
)
async def test_a_malformed_or_foreign_move_sent_to_the_owner_is_refused_and_changes_nothing(
    owned, clara, text, someone_else, reason
):
    layer = get_channel_layer()
    reply_to = await layer.new_channel()
    user = clara if someone_else else owned.socket.communicator.scope["user"]
    forged = owners.move_for(7, reply_to, user.pk, owned.game.pk, text, "en")
    assert not await database_sync_to_async(owners.carry_out)(forged)
    answer = await layer.receive(reply_to)
    assert answer["ticket"] == 7 and reason in (answer["refusal"] or "")
    assert await version_of(owned.game) == owned.game.version


async def test_a_move_its_owner_never_answers_is_carried_out_by_the_sockets_server_once(
    owned, monkeypatch
):
    monkeypatch.setattr(owners, "OWNER_SECONDS", 0.05)
    monkeypatch.setattr(owners, "TAKE_BACK_SECONDS", 0.2)
    taken_back = await owner_moves("taken_back")
    await owned.socket.send(**owned.lead)
    move = await get_channel_layer().receive(owned.owner_inbox)
    changes = await next_frame(owned.socket)
    assert f'data-base="{owned.game.version}"' in changes
    assert await owner_moves("taken_back") == taken_back + 1
    assert not await database_sync_to_async(owners.carry_out)(move)
    assert await version_of(owned.game) == owned.game.version + 1


async def test_after_a_move_was_taken_back_the_next_moves_stay_on_the_sockets_server(
    owned, monkeypatch
):
    monkeypatch.setattr(owners, "TAKE_BACK_SECONDS", 0.1)
    await owned.socket.send(**owned.lead)
    await get_channel_layer().receive(owned.owner_inbox)
    await next_frame(owned.socket)
    forwarded = await owner_moves("forwarded")
    await owned.socket.send(**{**owned.refused_take, "version": owned.game.version + 1})
    assert 'id="notice"' in await next_frame(owned.socket)
    assert await owner_moves("forwarded") == forwarded


async def test_an_owner_leaves_a_move_past_its_deadline_unanswered(owned):
    layer = get_channel_layer()
    reply_to = await layer.new_channel()
    user = owned.socket.communicator.scope["user"]
    late = owners.move_for(1, reply_to, user.pk, owned.game.pk, '{"action": "take"}', "en")
    late["until"] = time.time() - 0.01
    assert not await database_sync_to_async(owners.carry_out)(late)
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(reply_to), 0.3)


async def test_frames_name_the_owner_only_from_a_process_that_takes_moves(owned):
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(broadcast.spectators_group(owned.table.pk, "en"), listener)

    async def fire(after: float) -> Any:
        assert await database_sync_to_async(play.tick)(owned.game.pk, clock.now() + after)
        frame = await layer.receive(listener)
        while frame["type"] != "table.html":
            frame = await layer.receive(listener)
        return frame

    assert (await fire(31))["owner"] is None
    group = owners.take_moves("host:42")
    try:
        assert group == "owner.host-42"
        assert (await fire(100))["owner"] == group
    finally:
        owners.stop_taking_moves()


async def test_the_owners_answer_goes_out_in_the_same_trip_as_the_moves_frames(owned, monkeypatch):
    await owned.socket.send(**owned.lead)
    move = await get_channel_layer().receive(owned.owner_inbox)
    trips = recording_trips(monkeypatch)
    assert await database_sync_to_async(owners.carry_out)(move)
    [trip] = trips.types()
    assert trip[-1] == "owner.answer" and "table.html" in trip[:-1]
