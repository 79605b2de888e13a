"""What a player can do (R4–R10), and the one exception for what they may not."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import CARDS, Card

if TYPE_CHECKING:
    from .events import Event


class IllegalAction(Exception):
    """An action the rules forbid now. ``str(error)`` tells the player why, naming the rule.

    ``events`` are those of deadlines that fell due before the action was refused (they were
    applied: see ``Game.apply``)."""

    def __init__(self, reason: str, events: list[Event] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.events = events if events is not None else []


@dataclass(frozen=True, slots=True, init=False)
class Lead:
    """R4: the round's attacker leads one card, or several of one rank."""

    cards: tuple[Card, ...]

    def __init__(self, cards: Card | str | Iterable[Card | str]) -> None:
        if isinstance(cards, Card | str):
            cards = (cards,)
        object.__setattr__(self, "cards", tuple(Card.parse(card) for card in cards))


@dataclass(frozen=True, slots=True, init=False)
class ThrowIn:
    """R7: an attacker adds a card of a rank already on the table."""

    card: Card

    def __init__(self, card: Card | str) -> None:
        object.__setattr__(self, "card", Card.parse(card))


@dataclass(frozen=True, slots=True, init=False)
class Defend:
    """R5: the defender beats ``target`` with ``card``."""

    card: Card
    target: Card

    def __init__(self, card: Card | str, target: Card | str) -> None:
        object.__setattr__(self, "card", Card.parse(card))
        object.__setattr__(self, "target", Card.parse(target))


@dataclass(frozen=True, slots=True, init=False)
class Transfer:
    """R6: the defender adds a card of the attack's rank and passes the attack on."""

    card: Card

    def __init__(self, card: Card | str) -> None:
        object.__setattr__(self, "card", Card.parse(card))


@dataclass(frozen=True, slots=True)
class Take:
    """R8: the defender gives up and will pick up the table."""


@dataclass(frozen=True, slots=True)
class Pass:
    """R10: an attacker will not throw in (for now)."""


Action = Lead | ThrowIn | Defend | Transfer | Take | Pass

LEADS = {card.bit: Lead(card) for card in CARDS}
THROW_INS = {card.bit: ThrowIn(card) for card in CARDS}
TRANSFERS = {card.bit: Transfer(card) for card in CARDS}
DEFENDS = {target: {card.bit: Defend(card, target) for card in CARDS} for target in CARDS}
"""The one instance of each action that ``legal_actions`` lists, by the card's ``bit``:
``LEADS[card.bit]``, ``DEFENDS[target][card.bit]``."""
TAKE = Take()
PASS = Pass()
