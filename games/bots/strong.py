"""The strong level: determinized Monte-Carlo search. Each iteration deals the unseen cards in a
way that agrees with everything the seat saw, tries every shortlisted action in that same deal,
and plays each game out with the easy bot at every seat; the action with the best average share
of the bank wins."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

from games.engine import Action, Card, Defend, Lead

from .easy import choose_easy
from .knowledge import Knowledge, worth
from .sampling import sample
from .turns import easy_player, play_out, share
from .world import game_of

MOST_CANDIDATES = 10
FIRST_DEALS = 3
"""The deals every candidate plays before any drops out."""
CONFIDENCE = 2.0
CLOSE_ENOUGH = 0.05
"""A difference in the average share of the bank too small to search on for."""


@dataclass(frozen=True)
class Search:
    """``budget``: seconds a decision may take, a cap: no playout starts unless the slowest one
    so far would still end within it. ``playouts``: when set, the most deals tried; the
    search then depends only on the rng's seed, as long as the budget is not reached first."""

    budget: float = 0.05
    playouts: int | None = None


def choose_strong(
    k: Knowledge, legal: Sequence[Action], rng: random.Random, search: Search
) -> Action:
    started = time.perf_counter()
    fallback = choose_easy(k, legal)
    candidates = shortlist(k, legal, fallback)
    outcomes: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    deals = 0
    slowest = 0.0
    while len(alive) > 1 and (search.playouts is None or deals < search.playouts):
        world = sample(k, rng)
        for index in alive:
            begun = time.perf_counter()
            if begun - started + slowest > search.budget:
                return best(candidates, outcomes, alive)
            game = game_of(k, world)
            game.apply(k.seat, candidates[index], 0.0)
            play_out(game, [easy_player] * k.players)
            outcomes[index].append(share(game, k.seat))
            slowest = max(slowest, time.perf_counter() - begun)
        deals += 1
        alive = contenders(outcomes, alive, deals)
    return best(candidates, outcomes, alive)


def contenders(outcomes: list[list[float]], alive: list[int], deals: int) -> list[int]:
    """The candidates still worth deals. Every candidate plays the same deals, so each is
    compared with the leader deal for deal: after `FIRST_DEALS`, one behind it by more than
    `CONFIDENCE` standard errors of their difference drops out, and once every other is
    either out or as good as the leader within `CLOSE_ENOUGH` of the bank, the leader is
    the choice. The leader is the best average, the earlier on a tie."""
    if deals < FIRST_DEALS:
        return alive
    leader = max(alive, key=lambda i: (fmean(outcomes[i]), -i))
    staying = [leader]
    settled = True
    for index in alive:
        if index == leader:
            continue
        gap, error = difference(outcomes[leader], outcomes[index])
        if gap > CONFIDENCE * error:
            continue
        staying.append(index)
        settled = settled and gap + CONFIDENCE * error < CLOSE_ENOUGH
    return [leader] if settled else sorted(staying)


def difference(leader: list[float], other: list[float]) -> tuple[float, float]:
    """How far `other` is behind `leader` on average over their deals, and the standard error
    of that average."""
    gaps = [a - b for a, b in zip(leader, other, strict=True)]
    gap = fmean(gaps)
    spread = sum((g - gap) ** 2 for g in gaps) / (len(gaps) - 1)
    return gap, math.sqrt(spread / len(gaps))


def best(candidates: list[Action], outcomes: list[list[float]], alive: list[int]) -> Action:
    """The best average among the candidates still in the running and tried; on a tie, the
    earlier one (the easy bot's choice comes first)."""
    tried = [i for i in alive if outcomes[i]]
    if not tried:
        return candidates[alive[0]]
    return candidates[max(tried, key=lambda i: (fmean(outcomes[i]), -i))]


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
