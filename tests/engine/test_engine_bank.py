"""R14: the bank split."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import Defend, Lead, payouts, split_bank
from tests.support.engine_helpers import new


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


def test_r14_each_payout_shows_its_places_its_share_the_rule_and_the_rounding():
    shared = payouts(101, [[1, 2], [0], [3]], 4)
    assert [p.seat for p in shared] == [0, 1, 2, 3]
    assert (shared[1].places, shared[1].group_share, shared[1].share) == ((1, 2), 90, 45.0)
    assert (shared[1].rounded_down, shared[1].leftover, shared[1].chips) == (45, 1, 46)
    assert (shared[2].rounded_down, shared[2].leftover, shared[2].chips) == (45, 0, 45)
    assert (shared[0].places, shared[0].chips, shared[3].chips) == ((3,), 10, 0)
    assert str(shared[1].rule) == "Places 1–2 finish together and share 90% (R14)"
    assert str(shared[0].rule) == "Place 3 takes 10% (R14)"
    assert str(shared[3].rule) == "The durak gets nothing (R14)"
    assert shared[1].rule.template.startswith("Places {first}–{last}")


def test_r14_a_draw_says_the_last_places_are_shared():
    draw = payouts(100, [[0], [1, 2]], 3)
    assert str(draw[1].rule) == "A draw: places 2–3 share 20% (R14)"
    assert (draw[1].share, draw[1].chips, draw[2].chips) == (10.0, 10, 10)
    assert str(payouts(7, [[0, 1]], 2)[0].rule) == "A draw: places 1–2 share 100% (R14)"


@given(st.integers(0, 10**9), finishing_groups())
def test_r14_the_reckoning_of_each_payout_adds_up_to_what_split_bank_pays(bank, groups_and_players):
    groups, players = groups_and_players
    reckoned = payouts(bank, groups, players)
    assert [p.chips for p in reckoned] == split_bank(bank, groups, players)
    assert sum(p.leftover for p in reckoned) < players
    for p in reckoned:
        assert p.rounded_down == bank * p.group_share // (100 * len(p.places))


def test_r14_the_standings_of_a_game_cover_every_seat_and_a_stopped_game_counts_as_a_draw():
    game = new(["6S", "7S", "8D 9D"], trump="H")
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    assert game.standings() == [[0, 1], [2]]  # stopped here: seat 2 alone still holds cards
    game.tick(3.0)
    assert game.durak == 2 and game.standings() == [[0, 1], [2]]
    running = new(["6S 7C", "7S", "8D 9D"], trump="H")
    assert running.standings() == [[0, 1, 2]]
    drawn = new(["6S", "7S"], trump="H")
    drawn.apply(0, Lead("6S"), 1.0)
    drawn.apply(1, Defend("7S", "6S"), 2.0)
    drawn.tick(3.0)
    assert drawn.durak is None and drawn.standings() == [[0, 1]]
