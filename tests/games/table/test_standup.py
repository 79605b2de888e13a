"""Between games a seat is kept only for a player who is there (games.table.standup)."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import clock
from games.deadlines import scheduler
from games.live import presence
from games.models import Seat, Table
from games.table import play, standup, tables
from tests.support.tables import open_table, play_out, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


def seated(user: User) -> bool:
    return Seat.objects.filter(player=user).exists()


def seat_of(user: User) -> Seat:
    return Seat.objects.get(player=user)


def after_a_game(table: Table) -> None:
    """The game at the table ends now (as play.finish ends it)."""
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    table.refresh_from_db()
    play.release_table(table)


def grace_runs_out(frozen_clock) -> list[bool]:
    frozen_clock.advance(standup.GRACE.total_seconds() + 0.01)
    return [tables.stand_up(seat_id) for seat_id, _at in standup.due(clock.now())]


def test_a_player_offline_after_a_whole_game_is_stood_up_after_the_grace(anna, frozen_clock):
    table = open_table(anna, stake=100)
    tables.add_bot(table.pk, anna)
    game = play_out(start_when_due(table, frozen_clock), frozen_clock)
    assert game.status == game.Status.FINISHED
    assert seat_of(anna).release_at is not None
    assert grace_runs_out(frozen_clock) == [True]
    assert not seated(anna)
    assert not Seat.objects.filter(table=table).exists(), "the bot does not keep the table"
    assert tables.join(table.pk, anna).position == 0, "the player may sit down again"


def test_the_scheduler_knows_when_the_next_player_is_stood_up(anna, boris, frozen_clock):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    after_a_game(table)
    assert scheduler.read_upcoming().earliest() == pytest.approx(
        clock.now() + standup.GRACE.total_seconds(), abs=0.01
    )


def test_a_player_at_the_table_after_the_game_keeps_the_seat(anna, boris, frozen_clock):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    presence.report_in(table.pk, anna.pk)
    after_a_game(table)
    assert seat_of(anna).release_at is None
    assert seat_of(boris).release_at is not None
    grace_runs_out(frozen_clock)
    assert seated(anna) and not seated(boris)
    assert list(Seat.objects.filter(table=table).values_list("player", flat=True)) == [anna.pk]


def test_an_offline_player_who_comes_back_in_time_keeps_the_seat(anna, boris, frozen_clock):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    after_a_game(table)
    frozen_clock.advance(standup.GRACE.total_seconds() - 5)
    presence.report_in(table.pk, boris.pk)
    assert grace_runs_out(frozen_clock) == [True]
    assert seated(boris) and not seated(anna)


def test_an_away_player_keeps_the_seat_only_by_pressing_play_again(anna, boris, frozen_clock):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    presence.report_in(table.pk, anna.pk)
    presence.report_in(table.pk, boris.pk)
    Seat.objects.filter(player=boris).update(away=True)
    after_a_game(table)
    frozen_clock.advance(15)
    presence.report_in(table.pk, boris.pk)
    assert seat_of(boris).release_at is not None, "an open tab alone does not keep the seat"
    tables.play_again(table.pk, boris)
    assert seat_of(boris).release_at is None and not seat_of(boris).away
    assert grace_runs_out(frozen_clock) == []
    assert seated(boris)


def test_a_player_whose_last_socket_closes_between_games_is_stood_up(anna, boris, frozen_clock):
    table = open_table(anna, stake=0, seats=3)
    tables.join(table.pk, boris)
    presence.report_in(table.pk, boris.pk)
    presence.leave(table.pk, boris.pk)
    assert grace_runs_out(frozen_clock) == [True]
    assert not seated(boris) and seated(anna)


def test_a_socket_closing_during_a_game_does_not_start_the_grace(anna, boris, frozen_clock):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    start_when_due(table, frozen_clock)
    presence.leave(table.pk, boris.pk)
    assert seat_of(boris).release_at is None


def test_a_seat_is_stood_up_once(anna, boris, frozen_clock):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    after_a_game(table)
    frozen_clock.advance(standup.GRACE.total_seconds() + 0.01)
    seat_id = seat_of(boris).pk
    assert tables.stand_up(seat_id) is True
    assert tables.stand_up(seat_id) is False


def test_a_seated_player_can_stand_up_between_games(anna, boris, frozen_clock):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    presence.report_in(table.pk, boris.pk)
    after_a_game(table)
    tables.leave(table.pk, boris)
    assert not seated(boris)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
