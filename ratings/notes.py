"""The coach's notes on a finished game as a reader sees them, in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import Game
from games.picture.movelog import describe
from ratings.models import CoachReview


def described(game: Game) -> list[dict[str, Any]]:
    if game.status != Game.Status.FINISHED:
        return []
    names = [player.label for player in game.players.select_related("player").order_by("seat")]
    return [
        {
            "seq": note.seq,
            "seat": note.seat,
            "played": describe(note.played, names, note.seat),
            "better": describe(note.better, names, note.seat),
            "played_chance": round(100 * note.played_chance),
            "better_chance": round(100 * note.better_chance),
        }
        for note in game.coach_notes.all()
    ]


def review_of(game: Game) -> CoachReview | None:
    if game.status != Game.Status.FINISHED:
        return None
    return CoachReview.objects.filter(game=game).first()


def replay_marks(game: Game) -> list[dict[str, Any]]:
    """Each note as the replay shows it beside the move log line of its decision."""
    return [
        {
            "seq": note["seq"],
            "text": _(
                "Coach: better %(better)s (%(better_chance)s%% against %(played_chance)s%% "
                "not durak)"
            )
            % note,
        }
        for note in described(game)
    ]
