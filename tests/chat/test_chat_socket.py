"""The chat over the table socket: who may write, who reads what, and that it stays small."""

from __future__ import annotations

import json
import time

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from chat.consumer import CHAT_LIMIT
from chat.models import Message
from games.engine import Game as EngineGame
from tests.support.sockets import VERSION, Socket, running_game, two_player_table
from tests.support.tables import open_table

pytestmark = pytest.mark.django_db(transaction=True)

LINE = 'class="chat-line '
SCRIPT = '<script>alert("x")</script><img src=x onerror=alert(1)>'


async def connected(
    sockets: list[Socket], table, user, language: str = "en", invite: str = ""
) -> Socket:
    """A socket at the table once it has its snapshot and the chat's recent lines."""
    socket = Socket(table, user, invite)
    socket.communicator.scope["cookies"] = {"django_language": language}
    ok, _code = await socket.connect()
    assert ok
    sockets.append(socket)
    while 'id="chat-lines"' not in await socket.next():
        pass
    await socket.drain()
    return socket


async def say(socket: Socket, text: str) -> None:
    await socket.send(action="chat", text=text)


async def settled(sockets: list[Socket]) -> None:
    """Let the connects' own frames (presence and the like) arrive first."""
    for socket in sockets:
        await socket.drain()


async def heard(socket: Socket, *markers: str) -> str:
    """The next frame with a chat line or a notice (or `markers`), past any other frame."""
    markers = markers or (LINE, 'id="notice"')
    while True:
        frame = await socket.next()
        if any(marker in frame for marker in markers):
            return frame


async def lines_in(socket: Socket) -> list[str]:
    return [frame for frame in await socket.drain() if LINE in frame]


@database_sync_to_async
def messages() -> list[Message]:
    return list(Message.objects.order_by("id"))


@database_sync_to_async
def allow_spectators(table) -> None:
    table.spectators_chat = True
    table.save(update_fields=["spectators_chat"])


async def test_a_players_line_reaches_everyone_at_the_table_as_one_small_frame(
    anna, boris, clara, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    players = [await connected(sockets, table, user) for user in (anna, boris)]
    spectator = await connected(sockets, table, clara)
    await settled(sockets)
    await say(players[0], "good luck")
    for socket in [*players, spectator]:
        frame = await socket.next()
        assert "good luck" in frame and "anna" in frame
        assert 'id="game"' not in frame and 'id="chat-lines"' not in frame
        assert len(frame.encode()) < 2048
        assert await socket.drain() == []


async def test_a_chat_line_carries_no_game_action(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    before = await running_game(table)
    socket = await connected(sockets, table, anna)
    await socket.send(action="chat", text="take", card="6S", version=before.version)
    move = json.dumps({"action": "take", "version": before.version})
    await socket.send(action="chat", text=move)
    await heard(socket)
    await heard(socket)
    after = await running_game(table)
    assert (after.version, after.state) == (before.version, before.state)
    assert [m.text for m in await messages()] == ["take", move]


async def test_what_a_player_writes_reaches_the_page_as_text_never_as_html(
    anna, boris, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    reader = await connected(sockets, table, boris)
    await say(await connected(sockets, table, anna), SCRIPT)
    frame = await heard(reader)
    assert "<script" not in frame and "<img" not in frame
    assert (
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
        in frame
    )
    again = await connected(sockets, table, boris)
    resync = next(frame for frame in again.frames if 'id="chat-lines"' in frame)
    assert "<script" not in resync and "&lt;script&gt;" in resync
    assert ">Mute</button>" in resync


async def test_a_spectator_reads_but_writes_only_where_the_table_allows_it(
    anna, boris, clara, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    player = await connected(sockets, table, anna)
    spectator = await connected(sockets, table, clara)
    await say(spectator, "hello")
    assert "Spectators may only read" in await heard(spectator)
    assert await player.drain() == [] and await messages() == []
    await allow_spectators(table)
    await say(spectator, "hello")
    frame = await heard(player)
    assert "hello" in frame and "spectator" in frame


async def test_an_anonymous_watcher_cannot_write(anna, boris, frozen_clock, sockets):
    table = await two_player_table(anna, boris, frozen_clock)
    await allow_spectators(table)
    watcher = await connected(sockets, table, AnonymousUser())
    await say(watcher, "hi")
    assert "Log in to write" in await heard(watcher)
    assert await messages() == []


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ({"action": "chat", "text": "x" * 301}, "at most 300 characters"),
        ({"action": "chat", "text": "  "}, "Write something first"),
        ({"action": "chat", "text": ["a"]}, "must be text"),
        ({"action": "chat", "reaction": "middle-finger"}, "no such quick reaction"),
        ({"action": "chat-mute", "player": "someone"}, "whom or what"),
        ({"action": "chat-mute", "player": True}, "whom or what"),
        ({"action": "chat-hide", "reason": "spam"}, "Only the staff"),
    ],
)
async def test_a_bad_chat_message_gets_a_notice_and_changes_nothing(
    anna, boris, frozen_clock, sockets, message, problem
):
    table = await two_player_table(anna, boris, frozen_clock)
    socket = await connected(sockets, table, anna)
    if message["action"] == "chat-hide":
        await say(await connected(sockets, table, boris), "hello")
        await heard(socket)
        message = {**message, "message": (await messages())[0].pk}
    before = await messages()
    await socket.send(**message)
    notice = await heard(socket)
    assert 'id="notice"' in notice and problem in notice
    assert await messages() == before
    assert not any(m.hidden for m in before)


async def test_a_quick_reaction_shows_by_the_senders_seat_in_each_readers_language(
    anna, boris, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    russian = await connected(sockets, table, boris, language="ru")
    sender = await connected(sockets, table, anna)
    seat = await database_sync_to_async(lambda: table.seat_set.get(player=anna).position)()
    await sender.send(action="chat", reaction="well-played")
    mine, theirs = await heard(sender), await heard(russian)
    assert f'class="reaction-bubble" data-seat="{seat}">Well played<' in mine
    assert f'data-seat="{seat}">Хорошо сыграно<' in theirs
    assert 'hx-swap-oob="beforeend:#reactions"' in theirs


async def test_a_player_who_mutes_another_no_longer_sees_their_lines_in_any_tab(
    anna, boris, clara, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    await allow_spectators(table)
    talker = await connected(sockets, table, anna)
    tabs = [await connected(sockets, table, boris) for _ in range(2)]
    other = await connected(sockets, table, clara)
    await say(talker, "before the mute")
    for socket in [*tabs, other]:
        await heard(socket)
    await tabs[0].send(action="chat-mute", player=anna.pk)
    for tab in tabs:
        redrawn = await heard(tab, 'id="chat-lines"')
        assert 'id="chat-lines"' in redrawn and "before the mute" not in redrawn
        assert f'data-chat-unmute="{anna.pk}"' in redrawn
    await say(talker, "after the mute")
    assert "after the mute" in await heard(other)
    for tab in tabs:
        assert await lines_in(tab) == []
    again = await connected(sockets, table, boris)
    assert not any("after the mute" in frame for frame in again.frames)
    await tabs[1].send(action="chat-unmute", player=anna.pk)
    assert "after the mute" in await heard(tabs[1], 'id="chat-lines"')


async def test_the_staff_hide_a_line_for_everyone_and_the_reason_is_kept(
    anna, boris, moderator, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    reader = await connected(sockets, table, boris)
    staff = await connected(sockets, table, moderator)
    await say(await connected(sockets, table, anna), "rude words")
    await heard(reader)
    await heard(staff)
    [message] = await messages()
    await staff.send(action="chat-hide", message=message.pk, reason="insults")
    frame = await heard(reader)
    assert f'id="chat-message-{message.pk}" hx-swap-oob="true"' in frame
    assert "hidden by the staff" in frame and "rude words" not in frame
    [message] = await messages()
    assert message.hidden_reason == "insults" and message.hidden_by_id == moderator.pk


async def test_the_staff_hide_only_lines_of_the_table_they_are_at(
    anna, boris, clara, moderator, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    elsewhere = await database_sync_to_async(open_table)(clara, stake=0)
    talker = await connected(sockets, table, anna)
    await say(talker, "hello")
    await heard(talker)
    [message] = await messages()
    staff = await connected(sockets, elsewhere, moderator)
    await staff.send(action="chat-hide", message=message.pk, reason="spam")
    assert "no such chat message" in await heard(staff)
    assert not (await messages())[0].hidden


async def test_five_lines_in_ten_seconds_are_the_most_a_player_may_send_from_any_tab(
    anna, boris, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    tabs = [await connected(sockets, table, anna) for _ in range(2)]
    reader = await connected(sockets, table, boris)
    for n in range(3):
        await say(tabs[0], f"line {n}")
        await heard(tabs[0])
    await settled(sockets)
    for n in range(3, 5):
        await say(tabs[1], f"line {n}")
        await heard(tabs[1])
    await settled(sockets)
    await tabs[1].send(action="chat", reaction="oops")
    notice = await heard(tabs[1])
    assert 'id="notice"' in notice and "at most 5 chat messages in 10 seconds" in notice
    assert len(await messages()) == 5
    await say(reader, "boris has his own budget")
    assert "own budget" in await heard(reader)
    frozen_clock.advance(10.01)
    await settled(sockets)
    await say(tabs[0], "and again")
    assert "and again" in await heard(tabs[0])


async def next_version(socket: Socket, version: int) -> tuple[float, str, int]:
    """Wait for the game's fragment at `version`; when it came and how many chat lines
    arrived before it."""
    lines = 0
    while True:
        frame = await socket.next(timeout=10)
        found = VERSION.search(frame)
        if found and int(found.group(1)) >= version:
            return time.perf_counter(), frame, lines
        lines += LINE in frame


async def test_a_flood_of_chat_does_not_hold_back_the_games_fragments(
    anna, boris, clara, frozen_clock, sockets
):
    table = await two_player_table(anna, boris, frozen_clock)
    await allow_spectators(table)
    game = await running_game(table)
    engine = EngineGame.from_dict(game.state)
    users = await database_sync_to_async(
        lambda: {seat.position: seat.player for seat in table.seat_set.select_related("player")}
    )()
    attacker = await connected(sockets, table, users[engine.attacker])
    defender = await connected(sockets, table, users[engine.defender])
    watcher = await connected(sockets, table, clara)
    flooders = [await connected(sockets, table, user) for user in (anna, boris, clara)]
    await settled(sockets)

    sent = time.perf_counter()
    card = str(engine.hands[engine.attacker][0])
    await attacker.send(action="lead", card=card, version=game.version)
    arrived, _frame, _lines = await next_version(watcher, game.version + 1)
    usual = arrived - sent
    await settled(sockets)

    for n in range(30):
        for flooder in flooders:
            await say(flooder, f"flood {n}")
    sent = time.perf_counter()
    await defender.send(action="take", version=game.version + 1)
    arrived, frame, lines = await next_version(watcher, game.version + 2)
    assert LINE not in frame and 'id="chat-lines"' not in frame
    assert lines <= 3 * CHAT_LIMIT.count
    assert arrived - sent < usual + 1.0, (usual, arrived - sent)
