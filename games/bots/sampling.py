"""Determinization: one full deal of the unseen cards that agrees with everything the seat saw."""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine import Card, in_order

from .knowledge import Knowledge


@dataclass(frozen=True)
class World:
    """Every hand and the talon in draw order (the face-up trump card last)."""

    hands: tuple[tuple[Card, ...], ...]
    talon: tuple[Card, ...]


def sample(k: Knowledge, rng: random.Random) -> World:
    """Deal the unseen cards at random: each other seat keeps the cards it is known to hold and
    gets as many unseen ones as it holds besides; the talon gets the next ones above the trump
    card; whatever is left was set aside by a partial deal."""
    pool = in_order(k.unseen)
    rng.shuffle(pool)
    hands: list[tuple[Card, ...]] = []
    for seat in range(k.players):
        if seat == k.seat:
            hands.append(k.hand)
            continue
        hidden = k.hidden(seat)
        hands.append((*in_order(k.known[seat]), *pool[:hidden]))
        del pool[:hidden]
    talon: tuple[Card, ...] = ()
    if k.talon and k.trump_card is not None:
        talon = (*pool[: k.talon - 1], k.trump_card)
    return World(tuple(hands), talon)
