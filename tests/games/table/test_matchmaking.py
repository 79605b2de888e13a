"""Quick play: where people wait, else an empty table at the stake, else a new one."""

from __future__ import annotations

import pytest

from accounts.services import create_player
from games import errors
from games.models import Seat, Table
from games.table import matchmaking, tables
from tests.support.tables import open_table

pytestmark = pytest.mark.usefixtures("ledger_audit")


def empty_table(host, **terms) -> Table:
    table = open_table(host, **terms)
    tables.leave(table.pk, host)
    return table


def test_quick_play_joins_the_table_where_people_wait_before_an_empty_one(anna, boris, clara):
    empty = empty_table(clara, stake=50)
    waiting = open_table(anna, stake=50, seats=3)
    assert matchmaking.quick_play(boris, 50) == waiting
    assert Seat.objects.get(player=boris).table == waiting
    assert not Seat.objects.filter(table=empty).exists()


def test_quick_play_prefers_the_table_nearest_to_starting(anna, boris, clara, db):
    dan = create_player("dan", "dan-plays-durak")
    four = open_table(anna, stake=10, seats=4)
    three = open_table(boris, stake=10, seats=3)
    tables.join(three.pk, clara)
    assert matchmaking.quick_play(dan, 10) == three
    assert Seat.objects.filter(table=four).count() == 1


def test_quick_play_takes_an_empty_table_at_the_stake_before_opening_one(anna, boris):
    empty = empty_table(anna, stake=20)
    assert matchmaking.quick_play(boris, 20) == empty
    assert Table.objects.count() == 1


def test_quick_play_opens_a_table_with_a_bot_when_none_fits(anna, boris, clara):
    open_table(anna, stake=10)
    open_table(clara, stake=20, private=True)
    table = matchmaking.quick_play(boris, 20)
    assert table.stake == 20 and not table.private
    seats = list(table.seat_set.order_by("position"))
    assert [s.player_id for s in seats] == [boris.pk, None]


def test_quick_play_skips_full_and_playing_tables(anna, boris, clara, frozen_clock):
    full = open_table(anna, stake=30)
    tables.join(full.pk, boris)
    table = matchmaking.quick_play(clara, 30)
    assert table != full


def test_quick_play_never_moves_a_seated_player(anna, boris):
    mine = open_table(anna, stake=10)
    open_table(boris, stake=10, seats=3)
    with pytest.raises(errors.SeatedElsewhere) as refusal:
        matchmaking.quick_play(anna, 10)
    assert refusal.value.table_id == mine.pk and refusal.value.may_leave
    assert "Test table" in str(refusal.value)
    assert Seat.objects.get(player=anna).table == mine
