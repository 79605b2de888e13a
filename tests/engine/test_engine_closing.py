"""R10: the closing window, passes, and the 1 s close."""

from __future__ import annotations

from games.engine import Defend, Lead, Pass, Take, ThrowIn
from tests.support.engine_helpers import new, refuse

THREE = ["6S 6C 7D 9C TC JC", "7S 8S 8D AS AD KC", "7C 9D 9S JD QS KS"]
TALON = "QC QD KH"


def beaten_at_2():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    return game


def test_r10_the_round_closes_when_the_8s_window_runs_out():
    game = beaten_at_2()
    assert game.phase == "closing" and game.deadline == 10.0
    assert game.tick(9.99) == [] and game.phase == "closing"
    events = game.tick(10.0)
    assert events[0]["type"] == "discard" and game.round == 2


def test_r10_a_throw_in_stops_the_countdown_and_its_beat_restarts_it_from_8s():
    game = beaten_at_2()
    game.apply(2, ThrowIn("7C"), 5.0)
    assert game.phase == "defend" and game.deadline == 35.0  # the defender's move time
    game.apply(1, Defend("KC", "7C"), 6.0)
    assert game.phase == "closing" and game.deadline == 14.0


def test_r10_a_throw_in_after_a_take_restarts_the_countdown_from_8s():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Take(), 2.0)
    assert game.deadline == 10.0
    game.apply(0, ThrowIn("6C"), 6.0)
    assert game.phase == "closing" and game.taken and game.window_end == 14.0
    assert game.deadline == 7.0  # and nobody holds another six: 1 s


def test_r10_passes_are_void_when_a_new_rank_appears():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(2, Pass(), 1.5)
    game.apply(1, Defend("7S", "6S"), 2.0)
    assert game.passed == set()
    game.apply(2, Pass(), 3.0)
    game.apply(0, ThrowIn("6C"), 4.0)  # no new rank: seat 2's pass stands
    assert game.passed == {2}
    game.apply(1, Defend("KC", "6C"), 5.0)
    assert game.passed == set()


def test_r10_passes_are_void_when_the_defender_takes():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(2, Pass(), 1.5)
    game.apply(0, Pass(), 1.6)
    game.apply(1, Take(), 2.0)
    assert game.passed == set() and game.deadline == 10.0


def test_r10_throwing_in_withdraws_the_throwers_own_pass():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Take(), 2.0)
    game.apply(0, Pass(), 3.0)
    refuse(game, 0, Pass(), 3.5, "R10")
    game.apply(0, ThrowIn("6C"), 3.6)
    assert 0 not in game.passed and Pass() in game.legal_actions(0)


def test_r10_the_round_closes_1s_after_every_attacker_who_could_throw_in_passed():
    game = beaten_at_2()
    game.apply(0, Pass(), 3.0)
    assert game.deadline == 10.0  # seat 2 could still throw in 7C
    game.apply(2, Pass(), 4.0)
    assert game.deadline == 5.0
    assert game.tick(4.99) == [] and game.phase == "closing"
    game.tick(5.0)
    assert game.round == 2 and [str(card) for card in game.discarded] == ["6S", "7S"]


def test_r10_an_attacker_who_cannot_throw_in_need_not_pass():
    game = new(["6S 6C 7D 9C TC JC", "7S 8S 8D AS AD KC", "9D 9S JD QS KS AC"], TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    assert game.deadline == 10.0
    game.apply(0, Pass(), 3.0)
    assert game.deadline == 4.0


def test_r10_the_round_closes_1s_after_the_limit_is_reached():
    game = new(["6S 6C 7D", "7S"], TALON)
    assert game.limit == 1
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    assert game.deadline == 3.0 and game.legal_actions(0) == [Pass()]


def test_r10_the_window_closes_first_when_it_ends_before_the_1s_delay():
    game = beaten_at_2()
    game.apply(0, Pass(), 9.5)
    game.apply(2, Pass(), 9.6)
    assert game.close_at == 10.6 and game.deadline == 10.0


def test_r10_after_a_take_only_the_attackers_act_and_then_the_round_closes():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Take(), 2.0)
    assert game.legal_actions(1) == []
    game.apply(2, Pass(), 3.0)
    assert game.deadline == 10.0  # seat 0 could still throw in 6C
    game.apply(0, ThrowIn("6C"), 4.0)  # its last six: nobody can add more
    assert game.deadline == 5.0
    game.tick(5.0)
    assert game.round == 2 and len(game.hands[1]) == 8


def test_r10_pass_is_listed_for_attackers_once_the_lead_is_on_the_table():
    game = new(THREE, TALON)
    assert Pass() not in game.legal_actions(2)
    refuse(game, 2, Pass(), 0.5, "R10")
    game.apply(0, Lead("6S"), 1.0)
    assert Pass() in game.legal_actions(2) and Pass() in game.legal_actions(0)
    assert Pass() not in game.legal_actions(1)
    refuse(game, 1, Pass(), 1.5, "R10")
