"""The staff act on tables: stop a game with every stake returned, close, lock, remove a
player, and each action goes into the audit trail."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts import ledger
from accounts.models import Transfer
from games import errors
from games.models import Game, Seat, Table
from games.table import play, tables
from staff import operations
from staff.models import StaffAction
from tests.staff.conftest import browser_for
from tests.support.sockets import move_of
from tests.support.tables import open_table, play_out, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


def running_game(anna, boris, frozen_clock, stake: int = 100) -> Game:
    table = open_table(anna, stake=stake)
    tables.join(table.pk, boris)
    return start_when_due(table, frozen_clock)


def test_the_staff_stop_a_running_game_and_every_stake_returns_once(
    frozen_clock, staff_browser, sofia, anna, boris
):
    game = running_game(anna, boris, frozen_clock)
    assert ledger.balance(anna) == 900
    page = staff_browser.post(
        reverse("staff_stop", args=[game.table_id]), {"reason": "a stuck deal"}, follow=True
    )
    assert "every stake returned" in page.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert ledger.balance(anna) == 1000 and ledger.balance(boris) == 1000
    assert Transfer.objects.filter(game_id=game.pk, kind="refund").count() == 2
    action = StaffAction.objects.get()
    assert (action.staff, action.kind, action.reason, action.game) == (
        sofia,
        StaffAction.Kind.STOP_GAME,
        "a stuck deal",
        game,
    )
    with pytest.raises(operations.StaffError, match="No game is running"):
        operations.stop_game(sofia, game.table_id, "again")
    assert Transfer.objects.filter(game_id=game.pk, kind="refund").count() == 2


def test_a_stop_during_the_closing_countdown_returns_each_stake_once(
    frozen_clock, sofia, anna, boris
):
    game = running_game(anna, boris, frozen_clock)
    attacker = game.state["attacker"]
    leader = anna if game.players.get(seat=attacker).player == anna else boris
    defender = boris if leader == anna else anna
    view_hand = play.load(game.pk).engine.view(attacker)["hand"]
    play.act(game.pk, leader, move_of({"action": "lead", "card": view_hand[0], "version": 1}), 1)
    game.refresh_from_db()
    play.act(
        game.pk,
        defender,
        move_of({"action": "take", "version": game.version}),
        game.version,
    )
    game.refresh_from_db()
    assert game.state["phase"] == "closing"
    operations.stop_game(sofia, game.table_id, "the closing window hung")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    refunds = Transfer.objects.filter(game_id=game.pk, kind="refund")
    assert sorted(refunds.values_list("seat", "amount")) == [(0, 100), (1, 100)]
    frozen_clock.advance(10)
    assert play.tick(game.pk) is False
    assert ledger.audit().problems == []


def test_a_stop_during_the_start_countdown_calls_the_game_off_before_any_stake(
    frozen_clock, sofia, anna, boris
):
    table = open_table(anna, stake=100)
    tables.join(table.pk, boris)
    table.refresh_from_db()
    assert table.starts_at is not None
    assert operations.stop_game(sofia, table.pk, "wrong stake") is None
    frozen_clock.advance(5)
    assert play.start(table.pk) is None
    table.refresh_from_db()
    assert table.starts_at is None and not table.games.exists()
    assert ledger.balance(anna) == 1000
    assert not Seat.objects.filter(table=table, ready=True).exists()
    tables.play_again(table.pk, anna)
    tables.play_again(table.pk, boris)
    assert start_when_due(table, frozen_clock).status == Game.Status.RUNNING


def test_the_staff_close_an_open_table_but_not_one_with_a_running_game(
    frozen_clock, sofia, anna, boris
):
    game = running_game(anna, boris, frozen_clock)
    with pytest.raises(operations.StaffError, match="stop it first"):
        operations.close_table(sofia, game.table_id, "closing")
    assert not StaffAction.objects.exists()
    operations.stop_game(sofia, game.table_id, "closing")
    operations.close_table(sofia, game.table_id, "closing")
    table = Table.objects.get(pk=game.table_id)
    assert table.status == Table.Status.CLOSED and not table.seat_set.exists()
    assert list(StaffAction.objects.values_list("kind", flat=True)) == ["close_table", "stop_game"]


def test_a_locked_table_takes_nobody_new_and_starts_no_game_until_unlocked(
    frozen_clock, sofia, anna, boris, clara
):
    table = open_table(anna, stake=10, seats=3)
    tables.join(table.pk, boris)
    operations.lock_table(sofia, table.pk, "suspicious pair")
    lobby = browser_for(clara).get(reverse("lobby")).content.decode()
    row = lobby[lobby.index(f'id="table-row-{table.pk}"') :].split("</tr>")[0]
    assert "locked" in row and 'data-action="join"' not in row
    with pytest.raises(errors.GameError, match="locked"):
        tables.join(table.pk, clara)
    with pytest.raises(operations.StaffError, match="already locked"):
        operations.lock_table(sofia, table.pk, "twice")
    tables.add_bot(table.pk, anna)
    table.refresh_from_db()
    assert table.starts_at is None
    operations.unlock_table(sofia, table.pk, "cleared")
    table.refresh_from_db()
    assert table.starts_at is not None
    assert start_when_due(table, frozen_clock).status == Game.Status.RUNNING
    assert list(StaffAction.objects.values_list("kind", flat=True)) == [
        "unlock_table",
        "lock_table",
    ]


def test_a_player_removed_between_games_frees_the_seat(frozen_clock, sofia, anna, boris):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    seat = Seat.objects.get(table=table, player=boris)
    operations.kick(sofia, table.pk, seat.position, "rude in chat")
    assert not Seat.objects.filter(player=boris).exists()
    table.refresh_from_db()
    assert table.starts_at is None
    action = StaffAction.objects.get()
    assert (action.kind, action.player, action.reason) == ("kick", boris, "rude in chat")


def test_a_player_removed_during_a_game_is_played_by_the_autopilot_and_cannot_come_back(
    frozen_clock, sofia, anna, boris
):
    game = running_game(anna, boris, frozen_clock)
    position = Seat.objects.get(player=boris).position
    operations.kick(sofia, game.table_id, position, "farming")
    seat = Seat.objects.get(table=game.table_id, position=position)
    assert seat.player is None and seat.autopiloted
    with pytest.raises(errors.GameError):
        tables.join(game.table_id, boris)
    with pytest.raises(errors.GameError, match="do not play"):
        play.act(game.pk, boris, move_of({"action": "take", "version": 1}), 1)
    game = play_out(game, frozen_clock)
    assert game.status == Game.Status.FINISHED
    assert game.players.get(seat=position).player == boris
    assert not Seat.objects.filter(table=game.table_id, position=position).exists()


def test_removing_nobody_is_refused_and_recorded_nowhere(frozen_clock, sofia, anna):
    table = open_table(anna, stake=0)
    with pytest.raises(operations.StaffError, match="Nobody sits"):
        operations.kick(sofia, table.pk, 1, "empty seat")
    with pytest.raises(operations.StaffError, match="reason"):
        operations.kick(sofia, table.pk, 0, "  ")
    assert not StaffAction.objects.exists()
    assert Seat.objects.filter(player=anna).exists()


def test_a_notice_to_a_table_is_recorded(frozen_clock, sofia, anna):
    table = open_table(anna, stake=0)
    operations.notify_table(sofia, table.pk, "Please keep it friendly")
    action = StaffAction.objects.get()
    assert (action.kind, action.table_id, action.reason) == (
        "table_notice",
        table.pk,
        "Please keep it friendly",
    )


def test_the_control_room_lists_every_table_with_players_phase_and_lateness(
    frozen_clock, staff_browser, anna, boris, clara
):
    game = running_game(anna, boris, frozen_clock)
    waiting = open_table(clara, stake=0, name="Quiet table")
    frozen_clock.past_deadline(game, 12)
    html = staff_browser.get(reverse("staff_tables")).content.decode()
    assert f'data-table-id="{game.table_id}"' in html and f'data-table-id="{waiting.pk}"' in html
    assert "anna" in html and "boris" in html and "clara" in html
    assert "12 s late" in html and "stuck" in html
    stuck = staff_browser.get(reverse("staff_tables"), {"show": "stuck"}).content.decode()
    assert f'data-table-id="{game.table_id}"' in stuck
    assert f'data-table-id="{waiting.pk}"' not in stuck
    shown = staff_browser.get(reverse("staff_tables"), {"show": "waiting"}).content.decode()
    assert f'data-table-id="{waiting.pk}"' in shown
    assert f'data-table-id="{game.table_id}"' not in shown
