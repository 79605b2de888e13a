"""The strong bot's search drops candidates that lose deal for deal, and stops once the
choice is settled."""

from __future__ import annotations

from games.bots.strong import FIRST_DEALS, contenders


def test_no_candidate_drops_out_before_the_first_deals() -> None:
    outcomes = [[1.0] * (FIRST_DEALS - 1), [0.0] * (FIRST_DEALS - 1)]
    assert contenders(outcomes, [0, 1], FIRST_DEALS - 1) == [0, 1]


def test_a_candidate_behind_the_leader_in_every_deal_drops_out() -> None:
    outcomes = [[0.8, 1.0, 0.8, 1.0], [0.0, 0.2, 0.0, 0.2], [0.8, 1.0, 0.0, 1.0]]
    assert contenders(outcomes, [0, 1, 2], 4) == [0, 2]


def test_a_candidate_that_wins_some_deals_the_leader_loses_stays_in() -> None:
    outcomes = [[1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 0.8, 0.2]]
    assert contenders(outcomes, [0, 1], 4) == [0, 1]


def test_the_leader_is_the_best_average_whatever_its_place_in_the_shortlist() -> None:
    outcomes = [
        [0.0, 0.2, 0.0, 0.2, 0.0],
        [1.0, 0.8, 1.0, 0.8, 1.0],
        [0.8, 1.0, 0.8, 1.0, 0.8],
    ]
    assert contenders(outcomes, [0, 1, 2], 5) == [1, 2]


def test_candidates_that_play_out_exactly_alike_leave_the_earlier_as_the_choice() -> None:
    outcomes = [[], [0.5, 0.0, 1.0], [0.5, 0.0, 1.0], [0.5, 0.0, 1.0]]
    assert contenders(outcomes, [1, 2, 3], 3) == [1]


def test_the_choice_is_settled_once_the_rest_are_out_or_within_a_hair_of_the_leader() -> None:
    leader = [1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5]
    close = [1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.48]
    lost = [0.0] * 8
    assert contenders([leader, close, lost], [0, 1, 2], 8) == [0]


def test_a_candidate_close_on_average_but_unsure_keeps_the_search_going() -> None:
    leader = [1.0, 0.0, 1.0, 0.0]
    unsure = [0.0, 1.0, 0.0, 1.0]
    assert contenders([leader, unsure], [0, 1], 4) == [0, 1]
