"""The writers' own statements read and write what the ORM would."""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict

from games.models import Game, Seat
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
