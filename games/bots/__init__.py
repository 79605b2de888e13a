"""Bots: ``choose(view, legal_actions, rng, level)`` picks a seat's action from that seat's view
alone, the same view a person at that seat gets. Pure Python, like the engine.

Levels: ``"easy"`` (a card player's rules of thumb) and ``"strong"`` (a search over deals of the
unseen cards; ``budget`` and ``playouts`` as in ``Search``). The server adds the delay of R16.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from games.engine import Action, View

from .easy import choose_easy
from .knowledge import read
from .strong import Search, choose_strong

Level = Literal["easy", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "strong")

__all__ = ["LEVELS", "Action", "Level", "Search", "choose"]


def choose(
    view: View,
    legal_actions: Sequence[Action],
    rng: random.Random,
    level: Level = "easy",
    *,
    budget: float = Search.budget,
    playouts: int | None = None,
) -> Action:
    """The action the bot at ``view["seat"]`` takes: one of ``legal_actions`` (which must not be
    empty), or, when it leads, a lead of several cards of one rank within the limit (R4, R9)."""
    if not legal_actions:
        raise ValueError("a bot is asked only when its seat has something to do")
    knowledge = read(view)
    if level == "easy":
        return choose_easy(knowledge, legal_actions)
    if level == "strong":
        return choose_strong(knowledge, legal_actions, rng, Search(budget, playouts))
    raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
