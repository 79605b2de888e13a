"""A coach's judgement of one decision: for each action worth trying, the chance that the seat
ends the game without being the durak, estimated from that seat's view alone over deals of
the cards it could not see, every game played out by the easy bot at every seat."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import Action, Phase, View

from .knowledge import read
from .sampling import sample
from .strong import shortlist
from .turns import easy_player, play_out
from .world import game_of


@dataclass(frozen=True)
class Estimate:
    action: Action
    safe: float
    """Share of the deals tried in which the seat was not the durak (an unfinished playout
    counts half)."""
    deals: int


def estimate(
    view: View,
    legal: Sequence[Action],
    played: Action,
    rng: random.Random,
    budget: float,
    most_deals: int = 200,
) -> list[Estimate]:
    """``played`` first, then the other actions of the strong bot's shortlist, each tried in the
    same deals; no deal starts once ``budget`` seconds have passed."""
    k = read(view)
    candidates = shortlist(k, legal, played)
    safe = [0.0] * len(candidates)
    deals = 0
    started = time.perf_counter()
    while deals < most_deals and time.perf_counter() - started < budget:
        world = sample(k, rng)
        for index, action in enumerate(candidates):
            game = game_of(k, world)
            game.apply(k.seat, action, 0.0)
            play_out(game, [easy_player] * k.players)
            if game.phase != Phase.OVER:
                safe[index] += 0.5
            elif game.durak != k.seat:
                safe[index] += 1.0
        deals += 1
    return [
        Estimate(action, safe[index] / deals if deals else 0.0, deals)
        for index, action in enumerate(candidates)
    ]
