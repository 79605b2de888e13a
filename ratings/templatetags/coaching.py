"""The coach's notes on a finished game's page."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from ratings.coach import MARGIN
from ratings.notes import described, review_of

register = template.Library()


@register.inclusion_tag("ratings/_coach_notes.html")
def coach_notes(game: Game) -> dict[str, Any]:
    review = review_of(game)
    return {
        "review": review,
        "notes": described(game) if review else [],
        "margin": round(100 * MARGIN),
    }
