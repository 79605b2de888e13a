"""The control room's socket: staff only, live rows of tables, staff actions as JSON; and
the table socket carries the staff's notices but takes no staff action from anyone."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from accounts import ledger
from games.live.consumers import LobbyConsumer
from games.models import Game, Table
from games.table import play, tables
from staff import operations
from staff.consumers import StaffConsumer
from staff.models import StaffAction
from tests.support.sockets import connected
from tests.support.tables import open_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("ledger_audit", "in_memory_layer"),
]


class StaffSocket:
    def __init__(self, user: Any) -> None:
        self.communicator = WebsocketCommunicator(StaffConsumer.as_asgi(), "/ws/staff/")
        self.communicator.scope["user"] = user
        self.communicator.scope["cookies"] = {"django_language": "en"}

    async def send(self, **fields: Any) -> None:
        await self.communicator.send_to(text_data=json.dumps(fields))

    async def next(self, timeout: float = 3.0) -> dict[str, Any]:
        return json.loads(await self.communicator.receive_from(timeout=timeout))

    async def until(self, key: str, timeout: float = 3.0) -> dict[str, Any]:
        while True:
            message = await self.next(timeout)
            if key in message:
                return message


@pytest.fixture
async def staff_sockets():
    opened: list[StaffSocket] = []
    yield opened
    for socket in opened:
        await socket.communicator.disconnect()


async def staff_socket(opened: list[StaffSocket], user: Any) -> StaffSocket:
    socket = StaffSocket(user)
    ok, _code = await socket.communicator.connect()
    assert ok
    opened.append(socket)
    return socket


async def frame_with(socket: Any, text: str) -> str:
    """The next frame containing `text` (presence frames may come first)."""
    while True:
        frame = await socket.next()
        if text in frame:
            return frame


@database_sync_to_async
def running_table(anna: Any, boris: Any, frozen_clock: Any) -> Table:
    table = open_table(anna, stake=100)
    tables.join(table.pk, boris)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    assert play.start(table.pk) is not None
    return table


@pytest.mark.parametrize("who", ["anonymous", "player"])
async def test_the_staff_socket_refuses_anyone_but_the_staff(who, anna):
    user = AnonymousUser() if who == "anonymous" else anna
    socket = StaffSocket(user)
    ok, code = await socket.communicator.connect()
    assert not ok and code == 4403


async def test_the_staff_stop_a_game_over_the_socket_and_see_the_row_and_audit_change(
    frozen_clock, sofia, anna, boris, staff_sockets
):
    table = await running_table(anna, boris, frozen_clock)
    socket = await staff_socket(staff_sockets, sofia)
    await socket.send(action="stop", table=table.pk, reason="over the socket")
    result = await socket.until("result")
    assert result["result"] == {
        "ok": True,
        "message": "Stopped: every stake returned.",
        "table": table.pk,
    }
    audit = await socket.until("audit")
    assert "over the socket" in audit["audit"]
    rows = await socket.until("rows")
    assert f'data-table-id="{table.pk}"' in rows["rows"][str(table.pk)]
    assert 'data-state="waiting"' in rows["rows"][str(table.pk)]
    game = await database_sync_to_async(Game.objects.get)(table=table)
    assert game.status == Game.Status.ABORTED
    assert await database_sync_to_async(ledger.balance)(anna) == 1000


async def test_the_staff_socket_refuses_bad_messages_and_changes_nothing(
    frozen_clock, sofia, anna, boris, staff_sockets
):
    table = await running_table(anna, boris, frozen_clock)
    socket = await staff_socket(staff_sockets, sofia)
    for message in (
        {"action": "stop", "table": table.pk},
        {"action": "stop", "table": str(table.pk), "reason": "x"},
        {"action": "explode", "table": table.pk, "reason": "x"},
        {"action": "kick", "table": table.pk, "position": "nine", "reason": "x"},
    ):
        await socket.send(**message)
        assert (await socket.until("result"))["result"]["ok"] is False
    await socket.communicator.send_to(text_data="[1, 2")
    assert (await socket.until("result"))["result"]["ok"] is False
    assert not await database_sync_to_async(StaffAction.objects.exists)()
    game = await database_sync_to_async(Game.objects.get)(table=table)
    assert game.status == Game.Status.RUNNING


async def test_a_member_no_longer_staff_since_connecting_is_refused(
    frozen_clock, sofia, anna, boris, staff_sockets
):
    table = await running_table(anna, boris, frozen_clock)
    socket = await staff_socket(staff_sockets, sofia)
    sofia.is_staff = False
    await database_sync_to_async(sofia.save)(update_fields=["is_staff"])
    await socket.send(action="stop", table=table.pk, reason="too late")
    result = await socket.until("result")
    assert result["result"]["ok"] is False and "Only the staff" in result["result"]["message"]
    game = await database_sync_to_async(Game.objects.get)(table=table)
    assert game.status == Game.Status.RUNNING


async def test_the_control_room_gets_a_new_row_when_a_table_opens(anna, sofia, staff_sockets):
    socket = await staff_socket(staff_sockets, sofia)
    table = await database_sync_to_async(open_table)(anna, stake=0, name="Fresh table")
    rows = await socket.until("rows")
    assert "Fresh table" in rows["rows"][str(table.pk)]


async def test_the_table_socket_takes_no_staff_action_from_a_player(
    frozen_clock, anna, boris, sockets
):
    table = await running_table(anna, boris, frozen_clock)
    socket = await connected(sockets, table, anna)
    await socket.send(action="stop", reason="I am losing", version=1)
    assert "Unknown action" in await frame_with(socket, 'id="notice"')
    game = await database_sync_to_async(Game.objects.get)(table=table)
    assert game.status == Game.Status.RUNNING


async def test_the_players_are_told_when_the_staff_stop_their_game(
    frozen_clock, sofia, anna, boris, sockets, staff_sockets
):
    table = await running_table(anna, boris, frozen_clock)
    player = await connected(sockets, table, anna)
    staff = await staff_socket(staff_sockets, sofia)
    await staff.send(action="stop", table=table.pk, reason="tell them")
    await staff.until("result")
    frames = [await player.next() for _ in range(2)]
    frames += await player.drain()
    told = "".join(frames)
    assert "Stopped by the staff: every stake returned" in told
    assert 'data-outcome="stopped"' in told and "draw" not in told.lower()


async def test_a_notice_from_the_staff_reaches_everyone_at_the_table(
    frozen_clock, sofia, anna, boris, clara, sockets, staff_sockets
):
    table = await running_table(anna, boris, frozen_clock)
    player = await connected(sockets, table, anna)
    spectator = await connected(sockets, table, clara)
    staff = await staff_socket(staff_sockets, sofia)
    await staff.send(action="notice", table=table.pk, text="Keep it friendly")
    assert (await staff.until("result"))["result"]["ok"] is True
    for socket in (player, spectator):
        assert "From the staff: Keep it friendly" in await frame_with(socket, 'id="notice"')


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ({"action": "notice", "text": "hello"}, "table_notice"),
        ({"action": "lock", "reason": "why"}, "lock_table"),
        ({"action": "kick", "position": 0, "reason": "why"}, "kick"),
        ({"action": "close", "reason": "why"}, "close_table"),
    ],
)
async def test_the_staff_do_each_table_action_over_the_socket(
    message, kind, anna, sofia, staff_sockets
):
    table = await database_sync_to_async(open_table)(anna, stake=0)
    socket = await staff_socket(staff_sockets, sofia)
    await socket.send(table=table.pk, **message)
    assert (await socket.until("result"))["result"]["ok"] is True
    recorded = await database_sync_to_async(
        lambda: list(StaffAction.objects.values_list("kind", flat=True))
    )()
    assert recorded == [kind]


async def test_a_site_banner_reaches_open_tables_and_the_lobby(
    frozen_clock, sofia, anna, boris, sockets
):
    table = await running_table(anna, boris, frozen_clock)
    player = await connected(sockets, table, anna)
    lobby = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
    lobby.scope["cookies"] = {"django_language": "en"}
    assert (await lobby.connect())[0]
    try:
        await database_sync_to_async(operations.post_site_notice)(sofia, "Restart at noon")
        assert "Restart at noon" in await frame_with(player, 'id="site-banners"')
        assert "Restart at noon" in await lobby.receive_from(timeout=3)
    finally:
        await lobby.disconnect()


async def test_a_removed_player_is_told_why_and_watches_on_as_a_spectator(
    frozen_clock, sofia, anna, boris, sockets
):
    table = await running_table(anna, boris, frozen_clock)
    removed = await connected(sockets, table, boris)
    position = await database_sync_to_async(lambda: table.seat_set.get(player=boris).position)()
    await database_sync_to_async(operations.kick)(sofia, table.pk, position, "farming chips")
    snapshot = await frame_with(removed, 'id="game"')
    assert 'data-role="spectator"' in snapshot
    told = await frame_with(removed, "removed you")
    assert "farming chips" in told
