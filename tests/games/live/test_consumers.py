"""The table socket, driven the way a browser drives it (htmx ws-send JSON)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from accounts import ledger
from games import clock
from games.deadlines import scheduler
from games.engine import Deal, Rules
from games.engine import Game as EngineGame
from games.live import broadcast, consumers, metrics
from games.models import Game, GamePlayer, Table
from games.table import play, tables
from tests.support.sockets import (
    Socket,
    StateHistory,
    assert_frames_hide_cards,
    assert_no_leak,
    cards_in,
    connected,
    encode,
    move_of,
    running_game,
    two_player_table,
)
from tests.support.tables import Clock, open_table
from tests.support.trips import recording_trips

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("ledger_audit", "in_memory_layer"),
]


async def not_presence(socket: Socket) -> str:
    """The next frame that is not the table seeing a player arrive (it may come late)."""
    frame = await socket.next()
    while frame.startswith('<span id="presence-'):
        frame = await socket.next()
    return frame


async def nothing_but_presence(socket: Socket, timeout: float) -> bool:
    """Whether nothing is sent within `timeout` but the table seeing a player arrive."""
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    while (left := until - loop.time()) > 0:
        if await socket.communicator.receive_nothing(timeout=left):
            return True
        if not (await socket.next()).startswith('<span id="presence-'):
            return False
    return True


async def test_a_player_gets_a_snapshot_with_their_own_hand_only(
    anna, boris, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    engine = EngineGame.from_dict(game.state)
    socket = await connected(sockets, table, anna)
    snapshot = socket.frames[0]
    assert f'data-version="{game.version}"' in snapshot
    seat = await database_sync_to_async(lambda: table.seat_set.get(player=anna).position)()
    mine = {str(card) for card in engine.hands[seat]}
    theirs = {str(card) for card in engine.hands[1 - seat]}
    assert mine <= cards_in(snapshot)
    assert not (theirs & cards_in(snapshot))
    assert 'id="chips-now" data-chips="900"' in snapshot


async def test_a_spectator_sees_no_hand(anna, boris, clara, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    engine = EngineGame.from_dict(game.state)
    socket = await connected(sockets, table, clara)
    hidden = {str(card) for hand in engine.hands for card in hand}
    assert not (hidden & cards_in(socket.frames[0]))
    await socket.send(action="take", version=game.version)
    assert "only its players can move" in await socket.next()


async def test_a_private_table_refuses_spectators_without_the_invite(anna, clara, sockets):
    table = await database_sync_to_async(open_table)(anna, private=True)
    refused = Socket(table, clara)
    assert (await refused.connect())[0]
    assert "This table is private: ask its players for the invite link." in await refused.next()
    assert await closed_with(refused) == 4403
    await connected(sockets, table, clara, invite=table.invite_code)


async def test_a_socket_to_a_closed_table_is_told_so_and_closed(anna, clara, sockets):
    table = await database_sync_to_async(open_table)(anna)
    await Table.objects.filter(pk=table.pk).aupdate(status=Table.Status.CLOSED)
    refused = Socket(table, clara)
    assert (await refused.connect())[0]
    assert "This table was closed." in await refused.next()
    assert await closed_with(refused) == 4403


async def closed_with(socket: Socket) -> int:
    """The code the server closed `socket` with."""
    output = await socket.communicator.receive_output(timeout=3)
    assert output["type"] == "websocket.close"
    return int(output["code"])


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ("not json at all", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"action": "fold"}', "Unknown action"),
        ('{"action": "lead", "card": "ZZ", "version": 1}', "is not a card"),
        ('{"action": "take"}', "which position"),
        ('{"action": "defend", "card": "6S", "version": 1}', "must name a card"),
        ('{"action": "take", "version": "x"}', "whole number"),
        ('{"action": "take", "version": 1, "pad": "' + "x" * 3000 + '"}', "too long"),
    ],
)
async def test_a_malformed_message_gets_a_notice_and_changes_nothing(
    anna, boris, frozen_clock, sockets, message, problem
):
    table = await two_player_table(anna, boris, frozen_clock)
    before = (await running_game(table)).version
    socket = await connected(sockets, table, anna)
    await socket.send_raw(message)
    notice = await not_presence(socket)
    assert 'id="notice"' in notice and problem in notice
    assert (await running_game(table)).version == before


async def test_a_move_out_of_turn_is_refused_with_the_reason(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    engine = EngineGame.from_dict(game.state)
    waiting = engine.defender
    user = await database_sync_to_async(lambda: table.seat_set.get(position=waiting).player)()
    card = str(engine.hands[waiting][0])
    socket = await connected(sockets, table, user)
    await socket.send(action="lead", card=card, version=game.version)
    notice = await socket.next()
    assert 'id="notice"' in notice and 'href="/rules/#r' in notice
    assert (await running_game(table)).version == game.version


async def test_a_stale_take_gets_a_fresh_view_and_a_reason(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    socket = await connected(sockets, table, anna)
    await socket.send(action="take", version=game.version + 5)
    fresh, notice = await socket.next(), await socket.next()
    assert f'data-version="{game.version}"' in fresh and 'id="notice"' in notice


async def test_a_take_on_a_table_that_changed_is_refused_without_a_whole_picture(
    anna, boris, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    engine = EngineGame.from_dict(game.state)
    users = await database_sync_to_async(
        lambda: {seat.position: seat.player for seat in table.seat_set.select_related("player")}
    )()
    defender = await connected(sockets, table, users[engine.defender])
    card = str(engine.hands[engine.attacker][0])
    lead = move_of({"action": "lead", "card": card, "version": game.version})
    await database_sync_to_async(play.act)(game.pk, users[engine.attacker], lead, game.version)
    assert 'data-base="' in await not_presence(defender)
    await defender.send(action="take", version=game.version)
    refusal = await not_presence(defender)
    assert 'id="notice"' in refusal and '<section id="game"' not in refusal
    assert await defender.communicator.receive_nothing(timeout=0.3)


async def test_a_reconnect_gets_the_current_snapshot(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    first = await connected(sockets, table, anna)
    await first.close()
    sockets.remove(first)
    game = await running_game(table)
    await database_sync_to_async(play.tick)(game.pk, clock.now() + 31)
    game = await running_game(table)
    again = await connected(sockets, table, anna)
    assert f'data-version="{game.version}"' in again.frames[0]


async def test_a_move_reaches_each_page_as_the_pieces_it_changed(
    anna, boris, clara, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    player, spectator = (
        await connected(sockets, table, anna),
        await connected(sockets, table, clara),
    )
    await database_sync_to_async(play.tick)(game.pk, clock.now() + 31)
    for socket in (player, spectator):
        changes = await socket.next()
        assert '<section id="game"' not in changes
        assert f'data-base="{game.version}"' in changes and 'hx-swap-oob="true"' in changes
    assert len(spectator.frames[-1]) < len(spectator.frames[0])


async def annas_seat(anna, boris, frozen_clock, sockets):
    """A running game, anna's socket at it, and a way to put a frame into her seat's group."""
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    socket = await connected(sockets, table, anna)
    seat = await database_sync_to_async(lambda: table.seat_set.get(player=anna).position)()

    async def frame_to(**frame: Any) -> None:
        await get_channel_layer().group_send(
            broadcast.seat_group(table.pk, seat),
            {"type": "table.html", "html": {"*": ""}, **frame},
        )

    return game, socket, frame_to


async def test_changes_after_a_version_that_never_comes_bring_the_whole_picture(
    anna, boris, frozen_clock, sockets
):
    game, socket, frame_to = await annas_seat(anna, boris, frozen_clock, sockets)
    sent_before = metrics.REGISTRY.get_sample_value("durak_whole_pictures_total") or 0
    await frame_to(version=game.version + 2, game=game.pk, base=game.version + 1)
    fresh = await not_presence(socket)
    assert '<section id="game"' in fresh and f'data-version="{game.version}"' in fresh
    assert metrics.REGISTRY.get_sample_value("durak_whole_pictures_total") == sent_before + 1


async def test_changes_that_arrive_out_of_order_are_shown_in_order(
    anna, boris, frozen_clock, sockets
):
    game, socket, frame_to = await annas_seat(anna, boris, frozen_clock, sockets)
    v = game.version
    later = {"version": v + 2, "game": game.pk, "base": v + 1, "html": {"*": "second"}}
    earlier = {"version": v + 1, "game": game.pk, "base": v, "html": {"*": "first"}}
    await frame_to(**later)
    await frame_to(**earlier)
    assert [await not_presence(socket), await not_presence(socket)] == ["first", "second"]
    assert await nothing_but_presence(socket, 0.7)


async def test_changes_the_page_already_shows_are_not_sent_again(
    anna, boris, frozen_clock, sockets
):
    game, socket, frame_to = await annas_seat(anna, boris, frozen_clock, sockets)
    await frame_to(version=game.version, game=game.pk, base=game.version - 1)
    assert await nothing_but_presence(socket, 0.2)


async def test_a_waiting_rooms_status_line_is_not_shown_over_a_running_game(
    anna, boris, frozen_clock, sockets
):
    game, socket, frame_to = await annas_seat(anna, boris, frozen_clock, sockets)
    line = '<p id="waiting-status" hx-swap-oob="true"></p>'
    await frame_to(version=None, game=None, base=None, piece=True, html={"*": line})
    assert await nothing_but_presence(socket, 0.2)
    await frame_to(version=game.version + 1, game=game.pk, base=game.version, html={"*": "next"})
    assert await not_presence(socket) == "next", "the version shown stayed as it was"


async def test_a_waiting_rooms_status_line_reaches_a_page_that_shows_the_waiting_room(
    anna, clara, sockets
):
    table = await database_sync_to_async(open_table)(anna)
    socket = await connected(sockets, table, clara)
    assert 'id="waiting-status"' in socket.frames[0]
    line = '<p id="waiting-status" hx-swap-oob="true" class="starting busy"></p>'
    await get_channel_layer().group_send(
        broadcast.spectators_group(table.pk, "en"),
        {
            "type": "table.html",
            "html": {"en": line},
            "version": None,
            "game": None,
            "base": None,
            "owner": None,
            "piece": True,
        },
    )
    assert await not_presence(socket) == line


async def test_a_spectator_who_asks_to_sync_gets_the_whole_picture_once_per_version(
    anna, boris, clara, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    socket = await connected(sockets, table, clara)
    await socket.send(action="sync")
    fresh = await socket.next()
    assert '<section id="game"' in fresh and f'data-version="{game.version}"' in fresh
    assert 'id="hand"' not in fresh
    for _ in range(3):
        await socket.send(action="sync")
        repeat = await socket.next()
        assert "already current" in repeat and len(repeat) < 300
    await database_sync_to_async(play.abort)(game.pk)
    await socket.drain()
    await socket.send(action="sync")
    answer = await socket.next()
    assert "already current" not in answer and len(answer) > 300


async def play_over_sockets(
    table: Table,
    seats: dict[int, Socket],
    watchers: list[tuple[int | None, Socket]],
    frozen_clock: Clock,
    rng: random.Random,
) -> Game:
    for _ in range(3000):
        game = await running_game_or_last(table)
        if game.status != Game.Status.RUNNING:
            return game
        engine = EngineGame.from_dict(game.state)
        movers = [seat for seat in seats if engine.legal_actions(seat)]
        if movers and rng.random() < 0.9:
            seat = rng.choice(movers)
            action = rng.choice(engine.legal_actions(seat))
            await seats[seat].send(**encode(action), version=game.version)
        else:
            frozen_clock.past_deadline(game)
            await database_sync_to_async(play.tick)(game.pk)
        for _audience, socket in watchers:
            await socket.drain()
    raise AssertionError("the game did not end")


@database_sync_to_async
def running_game_or_last(table: Table) -> Game:
    return table.games.latest("started_at")


async def test_a_whole_two_player_game_over_sockets_never_shows_a_hidden_card(
    anna, boris, clara, frozen_clock, sockets, state_history
):
    table = await two_player_table(anna, boris, frozen_clock)
    positions = await database_sync_to_async(
        lambda: {s.player_id: s.position for s in table.seat_set.all()}
    )()
    anna_socket = await connected(sockets, table, anna)
    boris_socket = await connected(sockets, table, boris)
    spectator = await connected(sockets, table, clara)
    seats = {positions[anna.pk]: anna_socket, positions[boris.pk]: boris_socket}
    watchers = list(seats.items()) + [(None, spectator)]
    game = await play_over_sockets(table, seats, watchers, frozen_clock, random.Random(7))
    for audience, socket in watchers:
        assert_frames_hide_cards(socket.frames, audience, state_history)
    assert game.status == Game.Status.FINISHED
    results = await database_sync_to_async(
        lambda: list(GamePlayer.objects.filter(game=game).select_related("player"))
    )()
    assert sum(result.payout or 0 for result in results) == 200
    durak = [result.player.username for result in results if result.durak and result.player]
    told = f"{durak[0]} is the durak." if durak else "A draw: nobody is the durak."
    for socket in seats.values():
        assert f'class="durak">{told}' in socket.frames[-1]
    told = f"Last game: {durak[0]} was the durak." if durak else "Last game: a draw."
    assert f'class="last-game">{told}' in spectator.frames[-1]


async def test_a_whole_four_player_game_with_bots_reaches_every_seat_and_the_ledger(
    anna, clara, frozen_clock, sockets, state_history
):
    table = await database_sync_to_async(open_table)(anna, stake=50, seats=4)
    for _ in range(3):
        await database_sync_to_async(tables.add_bot)(table.pk, anna, "easy")
    anna_socket = await connected(sockets, table, anna)
    spectator = await connected(sockets, table, clara)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    await database_sync_to_async(play.start)(table.pk)
    watchers = [(0, anna_socket), (None, spectator)]
    game = await play_over_sockets(
        table, {0: anna_socket}, watchers, frozen_clock, random.Random(11)
    )
    for audience, socket in watchers:
        assert_frames_hide_cards(socket.frames, audience, state_history)
    assert game.status == Game.Status.FINISHED
    bank = await database_sync_to_async(lambda: ledger.bank(game.pk).balance)()
    assert bank == 0
    assert any('data-phase="waiting"' in frame for frame in spectator.frames[-3:])


async def test_the_table_sees_a_player_come_and_go(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    positions = await database_sync_to_async(
        lambda: {s.player_id: s.position for s in table.seat_set.all()}
    )()
    anna_socket = await connected(sockets, table, anna)
    boris_socket = await connected(sockets, table, boris)
    came = await anna_socket.next()
    assert f'id="presence-{positions[boris.pk]}"' in came and "online" in came
    await boris_socket.send(action="ping")
    assert await boris_socket.communicator.receive_nothing(timeout=0.2)
    await boris_socket.close()
    sockets.remove(boris_socket)
    went = await anna_socket.next()
    assert f'id="presence-{positions[boris.pk]}"' in went and "offline" in went


async def test_a_player_who_sits_down_from_the_page_shows_online_at_once(
    anna, boris, frozen_clock, sockets
):
    table = await database_sync_to_async(open_table)(anna, stake=10)
    anna_socket = await connected(sockets, table, anna)
    await connected(sockets, table, boris)
    await database_sync_to_async(tables.join)(table.pk, boris)
    position = await database_sync_to_async(lambda: table.seat_set.get(player=boris).position)()
    frames = [await anna_socket.next() for _ in range(2)]
    frames += await anna_socket.drain()
    came = [frame for frame in frames if f'id="presence-{position}"' in frame]
    assert came and "online" in came[-1]
    seat = await database_sync_to_async(lambda: table.seat_set.get(player=boris))()
    assert seat.last_seen is not None


async def test_a_socket_speaks_the_browsers_language_and_remembers_it_for_the_seat(
    anna, boris, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    socket = Socket(table, anna)
    socket.communicator.scope["cookies"] = {}
    socket.communicator.scope["headers"] = [(b"accept-language", b"en-US,en;q=0.9,ru;q=0.5")]
    ok, _code = await socket.connect()
    sockets.append(socket)
    assert ok
    await socket.next()
    await socket.drain()
    await socket.send_raw("not json at all")
    assert "not valid JSON" in await socket.next()
    await database_sync_to_async(anna.refresh_from_db)()
    assert anna.language == "en"


def test_the_leak_check_catches_an_opponents_card_in_a_frame():
    engine = EngineGame.start(
        Deal(hands=[["6S", "7S"], ["8S", "9S"]], talon=["QD", "KH"]), Rules(), attacker=0
    )
    history = StateHistory()
    history.states[3] = engine.to_dict()
    frame = '<section id="game" data-version="3"><button data-card="8S"></button></section>'
    with pytest.raises(AssertionError):
        assert_no_leak(frame, 0, history)
    assert_no_leak(frame, 1, history)
    with pytest.raises(AssertionError):
        assert_no_leak('<section id="game" data-version="3">… 9♠ …</section>', 0, history)
    trump, hidden = engine.trump_card, engine.talon[0]
    assert trump is not None and hidden != trump
    assert_no_leak(f'<div id="game-attrs" data-version="3"></div>… {trump.label} …', 0, history)
    with pytest.raises(AssertionError):
        assert_no_leak(
            f'<div id="game-attrs" data-version="3"></div>… {hidden.label} …', 1, history
        )
    with pytest.raises(AssertionError):
        assert_no_leak('<section id="game" data-version="">… 8♠ …</section>', None, history)
    with pytest.raises(AssertionError):
        assert_frames_hide_cards(["a notice of no game: 8♠"], 1, history)


async def test_a_page_that_missed_changes_in_a_redis_outage_gets_the_whole_picture_after_it(
    anna, boris, frozen_clock, sockets, monkeypatch
):
    game, socket, _frame_to = await annas_seat(anna, boris, frozen_clock, sockets)
    with monkeypatch.context() as lost:
        lost.setattr(broadcast, "send_all", lambda messages: None)
        await database_sync_to_async(play.tick)(game.pk, clock.now() + 31)
    now = await running_game(await database_sync_to_async(Table.objects.get)(pk=game.table_id))
    await get_channel_layer().group_send(
        broadcast.public_group(game.table_id), {"type": "layer.resumed"}
    )
    fresh = await socket.next()
    assert '<section id="game"' in fresh and f'data-version="{now.version}"' in fresh


async def test_a_page_that_missed_nothing_in_a_redis_outage_is_sent_nothing_after_it(
    anna, boris, frozen_clock, sockets
):
    game, socket, _frame_to = await annas_seat(anna, boris, frozen_clock, sockets)
    await get_channel_layer().group_send(
        broadcast.public_group(game.table_id), {"type": "layer.resumed"}
    )
    assert await socket.communicator.receive_nothing(timeout=0.3)


async def test_a_move_carried_out_on_the_sockets_server_sends_its_frames_in_one_hand_over(
    anna, boris, frozen_clock, sockets, monkeypatch
):
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    engine = EngineGame.from_dict(game.state)
    attacker = await database_sync_to_async(
        lambda: table.seat_set.get(position=engine.attacker).player
    )()
    await connected(sockets, table, attacker)
    trips = recording_trips(monkeypatch)
    monkeypatch.setattr(scheduler, "SWEEP_SECONDS", 3600.0)  # every deadline wakes them
    lead = engine.legal_actions(engine.attacker)[0]
    await database_sync_to_async(consumers.act_gathered)(attacker, lead, game.version, game.pk)
    [trip] = trips.types()
    assert "table.html" in trip and trip[-1] == "scheduler.wake"
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).version == game.version + 1
