"""The writers' own statements read and write what the ORM would."""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict

from games.models import Game, GameEvent, Seat, Table
from games.table import game_rows, tables
from tests.support.tables import open_table, play_out, start_when_due


def every_value(instance) -> dict:
    return {
        each.attname: getattr(instance, each.attname) for each in instance._meta.concrete_fields
    }


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


def assert_a_table_is_read_as_the_orm_reads_it(anna, boris, frozen_clock) -> None:
    table = open_table(anna, stake=10, seats=2)
    tables.join(table.pk, boris)
    found = game_rows.table_and_game(table.pk)
    assert found is not None and found[1] is None
    assert every_value(found[0]) == every_value(Table.objects.get(pk=table.pk))
    game = start_when_due(table, frozen_clock)
    found = game_rows.table_and_game(table.pk)
    assert found is not None
    read, running = found
    assert running is not None and running.table is read
    assert every_value(running) == every_value(Game.objects.get(pk=game.pk))
    assert every_value(read) == every_value(Table.objects.get(pk=table.pk))
    seats = game_rows.seats_of(read)
    assert [every_value(seat) for seat in seats] == [
        every_value(seat) for seat in read.seats_in_order()
    ]


@pytest.mark.django_db
def test_a_table_and_its_running_game_are_read_as_the_orm_reads_them(anna, boris, frozen_clock):
    assert_a_table_is_read_as_the_orm_reads_it(anna, boris, frozen_clock)


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_table_and_its_running_game_are_read_as_the_orm_reads_them_on_postgresql(
    anna, boris, frozen_clock
):
    assert_a_table_is_read_as_the_orm_reads_it(anna, boris, frozen_clock)


@pytest.mark.django_db
def test_no_table_is_read_where_there_is_none():
    assert game_rows.table_and_game(10**9) is None


def assert_events_are_read_as_the_orm_reads_them(anna, boris, frozen_clock) -> None:
    table = open_table(anna, stake=0, seats=2)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    play_out(game, frozen_clock)
    stored = list(GameEvent.objects.filter(game=game).order_by("seq"))
    latest = game_rows.latest_events(game.pk, 5)
    assert latest == [(event.data, event.version) for event in stored[-5:]]
    assert len(game_rows.latest_events(game.pk, 10**6)) == len(stored)
    last = stored[-1].version
    assert game_rows.version_events(game.pk, last) == [
        (event.data, event.version) for event in stored if event.version == last
    ]


@pytest.mark.django_db
def test_a_games_latest_events_and_one_versions_events_are_read_as_the_orm_reads_them(
    anna, boris, frozen_clock
):
    assert_events_are_read_as_the_orm_reads_them(anna, boris, frozen_clock)


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_games_latest_events_and_one_versions_events_are_read_on_postgresql(
    anna, boris, frozen_clock
):
    assert_events_are_read_as_the_orm_reads_them(anna, boris, frozen_clock)
