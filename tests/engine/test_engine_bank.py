"""R14: the bank split."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import split_bank


@pytest.mark.parametrize(
    "groups, players, expected",
    [
        ([[0], [1]], 2, [100, 0]),
        ([[0], [1], [2]], 3, [80, 20, 0]),
        ([[0], [1], [2], [3]], 4, [60, 30, 10, 0]),
        ([[0, 1], [2], [3]], 4, [45, 45, 10, 0]),  # the first two finish together
        ([[0], [1, 2]], 3, [80, 10, 10]),  # a 3-player draw
        ([[0], [1], [2, 3]], 4, [60, 30, 5, 5]),  # a 4-player draw
        ([[0, 1]], 2, [50, 50]),  # a 2-player draw
        ([[3], [2], [1], [0]], 4, [0, 10, 30, 60]),  # places, not seats
    ],
)
def test_r14_every_example_of_the_rules(groups, players, expected):
    assert split_bank(100, groups, players) == expected


@pytest.mark.parametrize(
    "bank, groups, players, expected",
    [
        (7, [[0], [1], [2]], 3, [6, 1, 0]),  # 5.6 + 1.4: the leftover chip to the winner
        (10, [[2, 3], [0], [1]], 4, [1, 0, 5, 4]),  # 4.5 each: the lower seat gets the chip
        (101, [[1], [0], [2], [3]], 4, [30, 61, 10, 0]),
        (3, [[0], [1], [2], [3]], 4, [2, 1, 0, 0]),  # leftovers run on to the next group
        (5, [[1], [0, 2]], 3, [0, 5, 0]),
        (1, [[0, 1]], 2, [1, 0]),
        (0, [[0], [1], [2]], 3, [0, 0, 0]),
    ],
)
def test_r14_payouts_round_down_and_leftovers_go_to_the_best_placed_seats(
    bank, groups, players, expected
):
    assert split_bank(bank, groups, players) == expected


@pytest.mark.parametrize(
    "bank, groups, players",
    [
        (100, [[0], [1]], 5),
        (-1, [[0], [1]], 2),
        (100, [[0]], 2),
        (100, [[0], [0, 1]], 2),
        (100, [[0], [], [1]], 2),
    ],
)
def test_r14_groups_must_cover_every_seat_once(bank, groups, players):
    with pytest.raises(ValueError):
        split_bank(bank, groups, players)


@st.composite
def finishing_groups(draw):
    players = draw(st.integers(2, 4))
    seats = draw(st.permutations(range(players)))
    cuts = sorted(draw(st.sets(st.integers(1, players - 1))))
    bounds = [0, *cuts, players]
    return [sorted(seats[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)], players


@given(st.integers(0, 10**9), finishing_groups())
def test_r14_the_payouts_always_add_up_to_the_bank_and_follow_the_places(bank, groups_and_players):
    groups, players = groups_and_players
    payouts = split_bank(bank, groups, players)
    assert sum(payouts) == bank and min(payouts) >= 0
    in_place_order = [payouts[seat] for group in groups for seat in sorted(group)]
    assert in_place_order == sorted(in_place_order, reverse=True)
