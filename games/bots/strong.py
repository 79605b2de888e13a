"""The strong level: determinized Monte-Carlo search. Each iteration deals the unseen cards in a
way that agrees with everything the seat saw, tries every shortlisted action in that same deal,
and plays each game out with the easy bot at every seat; the action with the best average share
of the bank wins."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import Action, Card, Defend, Lead

from .easy import choose_easy
from .knowledge import Knowledge, worth
from .sampling import sample
from .turns import easy_player, play_out, share
from .world import game_of

MOST_CANDIDATES = 10


@dataclass(frozen=True)
class Search:
    """``budget``: seconds a decision may take, a cap: no playout starts unless the slowest one
    so far would still end within it. ``playouts``: when set, the number of deals tried; the
    search then depends only on the rng's seed, as long as the budget is not reached first."""

    budget: float = 0.05
    playouts: int | None = None


def choose_strong(
    k: Knowledge, legal: Sequence[Action], rng: random.Random, search: Search
) -> Action:
    started = time.perf_counter()
    fallback = choose_easy(k, legal)
    candidates = shortlist(k, legal, fallback)
    totals = [0.0] * len(candidates)
    runs = [0] * len(candidates)
    alive = list(range(len(candidates)))
    deals = 0
    slowest = 0.0
    while len(alive) > 1 and (search.playouts is None or deals < search.playouts):
        world = sample(k, rng)
        for index in alive:
            begun = time.perf_counter()
            if begun - started + slowest > search.budget:
                return best(candidates, totals, runs, alive)
            game = game_of(k, world)
            game.apply(k.seat, candidates[index], 0.0)
            play_out(game, [easy_player] * k.players)
            totals[index] += share(game, k.seat)
            runs[index] += 1
            slowest = max(slowest, time.perf_counter() - begun)
        deals += 1
        alive = contenders(totals, runs, alive, deals)
    return best(candidates, totals, runs, alive)


def contenders(totals: list[float], runs: list[int], alive: list[int], deals: int) -> list[int]:
    """The candidates still worth deals: those whose average is within ``1/sqrt(deals)`` of
    the best one's (shares lie between 0 and 1, so early on only clear losers drop out)."""
    if deals < 2:
        return alive
    means = {i: totals[i] / runs[i] for i in alive}
    top = max(means.values())
    return [i for i in alive if means[i] >= top - deals**-0.5]


def best(
    candidates: list[Action], totals: list[float], runs: list[int], alive: list[int]
) -> Action:
    """The best average among the candidates still in the running and tried; on a tie, the
    earlier one (the easy bot's choice comes first)."""
    tried = [i for i in alive if runs[i]]
    if not tried:
        return candidates[alive[0]]
    return candidates[max(tried, key=lambda i: (totals[i] / runs[i], -i))]


def shortlist(k: Knowledge, legal: Sequence[Action], fallback: Action) -> list[Action]:
    """The actions worth searching, the easy bot's choice first. Of the beaters of an attack card
    only the cheapest of its suit and the cheapest trump; while the talon lasts, of the single
    leads only the lowest card of each suit; and leads of all cards of a rank."""
    chosen: list[Action] = [fallback]
    cheapest: dict[tuple[str, str], Defend | Lead] = {}
    for action in legal:
        if isinstance(action, Defend):
            key = (str(action.target), "trump" if action.card.suit == k.trump else "suit")
        elif isinstance(action, Lead) and k.talon:
            key = ("lead", action.cards[0].suit)
        else:
            if action not in chosen:
                chosen.append(action)
            continue
        known = cheapest.get(key)
        if known is None or worth(card_of(action), k.trump) < worth(card_of(known), k.trump):
            cheapest[key] = action
    chosen += [a for a in cheapest.values() if a not in chosen]
    if any(isinstance(a, Lead) for a in legal):
        room = min(k.limit, k.counts[k.defender])
        for rank in sorted({c.rank for c in k.hand}):
            group = Lead([c for c in k.hand if c.rank == rank][:room])
            if len(group.cards) > 1 and group not in chosen:
                chosen.append(group)
    return chosen[:MOST_CANDIDATES]


def card_of(action: Defend | Lead) -> Card:
    return action.card if isinstance(action, Defend) else action.cards[0]
