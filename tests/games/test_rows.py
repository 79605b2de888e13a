"""The shared reads in SQL built once read what the ORM would."""

from __future__ import annotations

import pytest

from games import rows
from games.models import Game, GameEvent, Table
from games.table import tables
from tests.support.orm import every_value
from tests.support.tables import open_table, play_out, start_when_due


def assert_a_table_is_read_as_the_orm_reads_it(anna, boris, frozen_clock) -> None:
    table = open_table(anna, stake=10, seats=2)
    tables.join(table.pk, boris)
    found = rows.table_and_game(table.pk)
    assert found is not None and found[1] is None
    assert every_value(found[0]) == every_value(Table.objects.get(pk=table.pk))
    game = start_when_due(table, frozen_clock)
    found = rows.table_and_game(table.pk)
    assert found is not None
    read, running = found
    assert running is not None and running.table is read
    assert every_value(running) == every_value(Game.objects.get(pk=game.pk))
    assert every_value(read) == every_value(Table.objects.get(pk=table.pk))
    seats = rows.seats_of(read)
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
    assert rows.table_and_game(10**9) is None


def assert_events_are_read_as_the_orm_reads_them(anna, boris, frozen_clock) -> None:
    table = open_table(anna, stake=0, seats=2)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    play_out(game, frozen_clock)
    stored = list(GameEvent.objects.filter(game=game).order_by("seq"))
    latest = rows.latest_events(game.pk, 5)
    assert latest == [(event.data, event.version) for event in stored[-5:]]
    assert len(rows.latest_events(game.pk, 10**6)) == len(stored)
    last = stored[-1].version
    assert rows.version_events(game.pk, last) == [
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
