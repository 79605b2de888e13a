"""The coach's estimate of a decision, from the seat's view alone."""

from __future__ import annotations

import random
import time

from games.bots.review import estimate
from games.engine import Deal, Defend, Game, Lead, Take


def a_take_that_loses_for_sure() -> Game:
    """Talon empty: beating 6♠ with 7♠ empties the defender's hand; taking leaves them to face
    the attacker's last card, a trump."""
    game = Game.start(Deal(hands=[["6S", "9H"], ["7S"]], talon=[], trump="H"), attacker=0)
    game.apply(0, Lead("6S"), now=1.0)
    return game


def test_a_take_that_loses_for_sure_is_judged_worse_than_the_beat_that_wins() -> None:
    game = a_take_that_loses_for_sure()
    found = estimate(game.view(1), game.legal_actions(1), Take(), random.Random(1), budget=0.5)
    chances = {estimate.action: estimate.safe for estimate in found}
    assert found[0].action == Take()
    assert chances == {Take(): 0.0, Defend("7S", "6S"): 1.0}
    assert all(estimate.deals >= 1 for estimate in found)


def test_an_estimate_keeps_to_its_budget() -> None:
    game = Game.start(Deal.shuffled(4, seed=7), attacker=0)
    seat = 0
    started = time.perf_counter()
    found = estimate(
        game.view(seat),
        game.legal_actions(seat),
        game.legal_actions(seat)[0],
        random.Random(2),
        budget=0.2,
    )
    assert time.perf_counter() - started < 0.2 + 0.15
    assert found and all(0.0 <= e.safe <= 1.0 for e in found)
