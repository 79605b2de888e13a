"""The coach's notes on a finished game's page."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from games.movelog import describe
from ratings.coach import MARGIN

register = template.Library()


@register.inclusion_tag("ratings/_coach_notes.html")
def coach_notes(game: Game) -> dict[str, Any]:
    review = getattr(game, "coach_review", None) if game.status == Game.Status.FINISHED else None
    names = [player.label for player in game.players.select_related("player").order_by("seat")]
    notes = [
        {
            "seq": note.seq,
            "seat": note.seat,
            "who": names[note.seat],
            "played": describe(note.played, names, note.seat),
            "better": describe(note.better, names, note.seat),
            "played_chance": round(100 * note.played_chance),
            "better_chance": round(100 * note.better_chance),
            "deals": note.deals,
        }
        for note in (game.coach_notes.all() if review else ())
    ]
    return {"review": review, "notes": notes, "margin": round(100 * MARGIN), "game": game}
