"""One line above a player's hand saying what they can do right now."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engine import Defend, Lead, Pass, Take, ThrowIn, Transfer, View, labels


def hint(view: View, legal: Sequence[Any]) -> str:
    if any(isinstance(action, Lead) for action in legal):
        return _("Your lead: play any card.")
    beats = any(isinstance(action, Defend) for action in legal)
    transfers = unique(str(a.card) for a in legal if isinstance(a, Transfer))
    take = any(isinstance(action, Take) for action in legal)
    if beats or transfers or take:
        words = {
            "targets": labels(
                [attack for attack, defence in view["table"] if attack and not defence]
            ),
            "cards": ", ".join(labels([card]) for card in transfers),
        }
        if beats and transfers:
            return _("Beat %(targets)s or transfer with %(cards)s.") % words
        if beats:
            return _("Beat %(targets)s or take the cards.") % words
        if transfers:
            return _("You cannot beat %(targets)s: transfer with %(cards)s or take.") % words
        return _("You cannot beat %(targets)s: take the cards.") % words
    throw_ins = unique(str(a.card) for a in legal if isinstance(a, ThrowIn))
    passes = any(isinstance(action, Pass) for action in legal)
    if throw_ins:
        words = {"cards": ", ".join(labels([card]) for card in throw_ins)}
        if passes:
            return _("Throw in %(cards)s, or pass.") % words
        return _("You may throw in %(cards)s.") % words
    if passes:
        return _("Nothing to throw in: pass.")
    return ""


def unique(codes: Any) -> list[str]:
    return list(dict.fromkeys(codes))
