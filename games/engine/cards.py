"""The 36 cards of the deck (R1). Every card exists once: parsing returns the shared instance."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NoReturn, TypeVar

RANKS = "6789TJQKA"
SUITS = "SCDH"
SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
RANK_LABELS = {6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
"""How a rank is written for people: the ten as "10", not the "T" of the card codes."""

T = TypeVar("T")


class Card:
    """A card such as the ten of hearts, ``Card.parse("TH")``.

    ``rank`` runs 6..14 (J=11, Q=12, K=13, A=14), ``suit`` is one of S C D H. ``index`` orders
    the deck by rank, ties by suit S < C < D < H (the order of R3 and R15); ``bit`` is
    ``1 << index``, the card in a set of cards written as one int (see ``cards_in``).
    ``label`` is how a person reads it, ``"10♥"``: in refusals, the move log and on the cards.
    """

    __slots__ = ("rank", "suit", "index", "bit", "code", "label")
    rank: int
    suit: str
    index: int
    bit: int
    code: str
    label: str

    def __new__(cls, rank: int, suit: str) -> Card:
        try:
            return _BY_VALUE[rank, suit]
        except (KeyError, TypeError):
            raise ValueError(f"there is no card of rank {rank!r} and suit {suit!r}") from None

    @staticmethod
    def parse(text: str | Card) -> Card:
        """``"TH"`` → the ten of hearts; a Card is returned as it is."""
        if isinstance(text, Card):
            return text
        try:
            return _BY_CODE[text]
        except (KeyError, TypeError):
            raise ValueError(
                f"{text!r} is not a card: write rank then suit, e.g. 'TH' (ranks {RANKS}, "
                f"suits {SUITS})"
            ) from None

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError("cards are immutable")

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


def _make(rank_char: str, suit: str) -> Card:
    card = object.__new__(Card)
    rank = RANKS.index(rank_char) + 6
    index = (rank - 6) * 4 + SUITS.index(suit)
    for name, value in (
        ("rank", rank),
        ("suit", suit),
        ("index", index),
        ("bit", 1 << index),
        ("code", rank_char + suit),
        ("label", RANK_LABELS[rank] + SUIT_SYMBOLS[suit]),
    ):
        object.__setattr__(card, name, value)
    return card


CARDS: tuple[Card, ...] = tuple(_make(r, s) for r in RANKS for s in SUITS)
"""The deck in index order: lowest rank first, ties by suit."""

_BY_CODE = {card.code: card for card in CARDS}
_BY_VALUE = {(card.rank, card.suit): card for card in CARDS}
_BY_BIT = {card.bit: card for card in CARDS}


def bits_of(cards: Iterable[Card]) -> int:
    """A set of cards as one int: the sum of their ``bit``."""
    bits = 0
    for card in cards:
        bits |= card.bit
    return bits


def cards_in(bits: int) -> list[Card]:
    """The cards of a set written as an int, lowest first."""
    return pick(_BY_BIT, bits)


def pick(table: Mapping[int, T], bits: int, found: list[T] | None = None) -> list[T]:
    """``table[card.bit]`` for every card in ``bits``, lowest first, appended to ``found`` when
    given."""
    if found is None:
        found = []
    while bits:
        lowest = bits & -bits
        found.append(table[lowest])
        bits ^= lowest
    return found


def in_order(cards: Iterable[Card]) -> list[Card]:
    """The cards lowest first, ties by suit S < C < D < H (the deck's order, ``CARDS``)."""
    return cards_in(bits_of(cards))


def as_cards(cards: Iterable[Card | str]) -> list[Card]:
    return [Card.parse(card) for card in cards]


def labels(cards: Iterable[Card | str]) -> str:
    """Cards as people read them, ``"6♠ 10♥"``."""
    return " ".join(Card.parse(card).label for card in cards)


def codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def packed(cards: Iterable[Card]) -> str:
    """Cards as one compact string, ``"6S7HTD"``."""
    return "".join(card.code for card in cards)


def unpacked(text: str) -> list[Card]:
    if len(text) % 2:
        raise ValueError(f"{text!r} is not a list of two-letter cards")
    return [Card.parse(text[i : i + 2]) for i in range(0, len(text), 2)]


def beats(card: Card, target: Card, trump: str) -> bool:
    """R5: a higher card of the same suit, or any trump over a non-trump."""
    if card.suit == target.suit:
        return card.rank > target.rank
    return card.suit == trump


RANK_BITS = {rank: bits_of(card for card in CARDS if card.rank == rank) for rank in range(6, 15)}
SUIT_BITS = {suit: bits_of(card for card in CARDS if card.suit == suit) for suit in SUITS}

BEATERS: dict[str, dict[Card, int]] = {
    trump: {target: bits_of(c for c in CARDS if beats(c, target, trump)) for target in CARDS}
    for trump in SUITS
}
"""``BEATERS[trump][target]``: every card that beats ``target``."""
