"""The writers' own statements read and write what the ORM would."""

from __future__ import annotations

import pytest
from django.db import connection
from django.forms.models import model_to_dict

from games import clock
from games.models import Game, Seat, Table
from games.table import game_rows, tables
from tests.support.orm import every_value
from tests.support.tables import open_table, start_when_due


def assert_read_as_the_orm_reads(anna, boris, frozen_clock) -> None:
    table = open_table(anna, stake=10, seats=3)
    tables.join(table.pk, boris)
    tables.add_bot(table.pk, anna, "strong")
    game = start_when_due(table, frozen_clock)
    Seat.objects.filter(table=table, player=boris).update(away=True)
    found = game_rows.game_and_seats(game.pk)
    assert found is not None
    row, seats = found
    orm = Game.objects.select_related("table").get(pk=game.pk)
    assert every_value(row) == every_value(orm)
    assert every_value(row.table) == every_value(orm.table)
    ordered = orm.table.seats_in_order()
    assert [every_value(seat) for seat in seats] == [every_value(seat) for seat in ordered]
    assert [seat.player and model_to_dict(seat.player) for seat in seats] == [
        seat.player and model_to_dict(seat.player) for seat in ordered
    ]
    assert [seat.is_bot for seat in seats] == [False, False, True]
    assert all(seat.table is row.table for seat in seats)


@pytest.mark.django_db
def test_a_game_and_its_seats_are_read_as_the_orm_reads_them(anna, boris, frozen_clock):
    assert_read_as_the_orm_reads(anna, boris, frozen_clock)


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_game_and_its_seats_are_read_as_the_orm_reads_them_on_postgresql(
    anna, boris, frozen_clock
):
    assert_read_as_the_orm_reads(anna, boris, frozen_clock)


@pytest.mark.django_db
def test_no_game_is_read_where_there_is_none():
    assert game_rows.game_and_seats(10**9) is None


def assert_the_earliest_moments_are_of_open_tables_only(anna, boris, clara, frozen_clock) -> None:
    playing = open_table(anna, stake=0)
    tables.add_bot(playing.pk, anna)
    game = start_when_due(playing, frozen_clock)
    soon, later = clock.now() + 5, clock.now() + 9
    waiting = open_table(boris, stake=0)
    Table.objects.filter(pk=waiting.pk).update(starts_at=clock.to_datetime(later))
    Table.objects.filter(pk=playing.pk).update(starts_at=clock.to_datetime(soon))
    Seat.objects.filter(table=playing).update(release_at=clock.to_datetime(soon))
    assert game_rows.next_moments()[1:] == (clock.to_datetime(later), None)
    seat = tables.join(waiting.pk, clara)
    Seat.objects.filter(pk=seat.pk).update(release_at=clock.to_datetime(later + 1))
    game.refresh_from_db()
    assert game_rows.next_moments() == (
        game.deadline_at,
        clock.to_datetime(later),
        clock.to_datetime(later + 1),
    )


@pytest.mark.django_db
def test_the_earliest_moments_are_of_running_games_and_open_tables_only(
    anna, boris, clara, frozen_clock
):
    assert_the_earliest_moments_are_of_open_tables_only(anna, boris, clara, frozen_clock)


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_earliest_moments_are_of_running_games_and_open_tables_only_on_postgresql(
    anna, boris, clara, frozen_clock
):
    assert_the_earliest_moments_are_of_open_tables_only(anna, boris, clara, frozen_clock)


@pytest.mark.django_db
def test_on_sqlite_each_earliest_moment_walks_the_index_of_its_own_column():
    if connection.vendor != "sqlite":
        pytest.skip("the plan asked for is SQLite's")
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN QUERY PLAN " + game_rows.next_moments_sql(connection.vendor),
            ["running", "open", "open"],
        )
        plan = " ".join(str(row[-1]) for row in cursor.fetchall())
    assert "deadline_at" in plan and "starts_at" in plan and "release_at" in plan
    assert "TEMP B-TREE" not in plan
