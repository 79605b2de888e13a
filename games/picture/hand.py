"""The cards of a player's hand, each with what tapping it does now."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Defend, Lead, ThrowIn, Transfer, View
from games.picture.words import CardFace, face_in


@dataclass(frozen=True)
class HandCard:
    face: CardFace
    action: str
    targets: tuple[str, ...]
    transfer: bool


def hand_cards(view: View, legal: Sequence[Any], language: str | None) -> list[HandCard]:
    """Each card of the hand with what tapping it does now."""
    leads: set[str] = set()
    throw_ins: set[str] = set()
    transfers: set[str] = set()
    defences: dict[str, list[str]] = {}
    for action in legal:
        if isinstance(action, Lead):
            leads.update(str(card) for card in action.cards)
        elif isinstance(action, ThrowIn):
            throw_ins.add(str(action.card))
        elif isinstance(action, Transfer):
            transfers.add(str(action.card))
        elif isinstance(action, Defend):
            defences.setdefault(str(action.card), []).append(str(action.target))
    cards = []
    for code in view["hand"]:
        if code in leads:
            action = "lead"
        elif code in throw_ins:
            action = "throw-in"
        elif code in defences:
            action = "defend"
        else:
            action = ""
        cards.append(
            HandCard(
                face=face_in(code, language),
                action=action,
                targets=tuple(defences.get(code, ())),
                transfer=code in transfers,
            )
        )
    return cards
