"""The words of cards and roles in the reader's language: a card's face and name, a role's
name; and a face as the pages draw it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine import RANK_LABELS, SUIT_SYMBOLS, Card, Role


def card_name(code: str) -> str:
    card = Card.parse(code)
    names = {
        6: _("Six"),
        7: _("Seven"),
        8: _("Eight"),
        9: _("Nine"),
        10: _("Ten"),
        11: _("Jack"),
        12: _("Queen"),
        13: _("King"),
        14: _("Ace"),
    }
    suits = {"S": _("of spades"), "C": _("of clubs"), "D": _("of diamonds"), "H": _("of hearts")}
    return f"{names[card.rank]} {suits[card.suit]}"


@dataclass(frozen=True)
class CardFace:
    code: str
    rank: str
    suit: str
    symbol: str
    red: bool
    name: str

    @classmethod
    def of(cls, code: str) -> CardFace:
        """The card as the active language names it."""
        return face_in(code, get_language())

    @classmethod
    def drawn(cls, code: str) -> CardFace:
        card = Card.parse(code)
        return cls(
            code=code,
            rank=RANK_LABELS[card.rank],
            suit=card.suit,
            symbol=SUIT_SYMBOLS[card.suit],
            red=card.suit in "DH",
            name=card_name(code),
        )


@lru_cache(maxsize=len(RANK_LABELS) * len(SUIT_SYMBOLS) * 8)
def face_in(code: str, language: str | None) -> CardFace:
    return CardFace.drawn(code)


@lru_cache(maxsize=64)
def role_name_in(role: Role, language: str | None) -> str:
    return {
        Role.ATTACKER: _("attacker"),
        Role.DEFENDER: _("defender"),
        Role.FINISHED: _("finished"),
        Role.DURAK: _("durak"),
    }.get(role, role)


@lru_cache(maxsize=256)
def drawn_face(face: CardFace) -> SafeString:
    """A card's face as the pieces and pages show it."""
    return SafeString(render_to_string("games/fragments/card.html", {"face": face}))
