"""Who holds what when a game starts (R1), or any position a test wants to start from."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .cards import CARDS, SUITS, Card, as_cards

HAND_SIZE = 6


class Deal:
    """``hands``: one list of cards per seat (2 to 4 seats). ``talon``: first card drawn first,
    the last one is the face-up trump card. ``trump`` is needed only when the talon is empty;
    ``trump_card`` may name the card that was turned up in an end-game without a talon. Cards
    in neither hands nor talon count as already discarded. ``seed`` records how a shuffled
    deal was made (R1)."""

    __slots__ = ("hands", "talon", "trump", "trump_card", "seed")

    def __init__(
        self,
        hands: Sequence[Iterable[Card | str]],
        talon: Iterable[Card | str] = (),
        trump: str | None = None,
        trump_card: Card | str | None = None,
        seed: int | None = None,
    ) -> None:
        self.hands = tuple(tuple(as_cards(hand)) for hand in hands)
        self.talon = tuple(as_cards(talon))
        self.trump_card = None if trump_card is None else Card.parse(trump_card)
        self.seed = seed
        check_players(len(self.hands))
        check_once([card for hand in self.hands for card in hand] + list(self.talon))
        self.trump, self.trump_card = trump_of(self.talon, trump, self.trump_card)

    @classmethod
    def shuffled(cls, players: int, seed: int) -> Deal:
        """R1: a full deal from a deck shuffled by ``random.Random(seed)``."""
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
        cut = HAND_SIZE * players
        hands = [deck[i : i + HAND_SIZE] for i in range(0, cut, HAND_SIZE)]
        return cls(hands, deck[cut:], seed=seed)

    def __repr__(self) -> str:
        hands = ", ".join(" ".join(map(str, hand)) for hand in self.hands)
        talon = " ".join(map(str, self.talon))
        return f"Deal(hands=[{hands}], talon=[{talon}], trump={self.trump!r})"


def check_players(players: int) -> None:
    if not 2 <= players <= 4:
        raise ValueError(f"a game has 2 to 4 players, not {players} (R2)")


def check_once(every: Sequence[Card]) -> None:
    """Every card is in one place at most."""
    if len(set(every)) != len(every):
        twice = sorted({c.code for c in every if every.count(c) > 1})
        raise ValueError(f"cards dealt twice: {' '.join(twice)}")


def trump_of(
    talon: Sequence[Card], trump: str | None, trump_card: Card | None
) -> tuple[str, Card | None]:
    """The trump suit and the face-up card: the talon's last card, else ``trump_card``, else
    only the suit ``trump`` (R1)."""
    if talon:
        face_up = talon[-1]
        if trump_card is not None and trump_card != face_up:
            raise ValueError(f"the face-up card is the talon's last card, {face_up}")
        trump_card = face_up
        if trump is not None and trump != face_up.suit:
            raise ValueError(f"the trump is the suit of the face-up card {face_up} (R1)")
        trump = face_up.suit
    elif trump_card is not None:
        if trump is not None and trump != trump_card.suit:
            raise ValueError(f"the trump card {trump_card} is not of suit {trump}")
        trump = trump_card.suit
    if trump not in tuple(SUITS):
        raise ValueError(f"the trump must be one of {' '.join(SUITS)}, not {trump!r}")
    return trump, trump_card
