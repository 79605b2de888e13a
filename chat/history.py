"""A finished game's move log with what was said at the table, each line in its place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chat import rendering
from chat.models import Message
from games import rendering as games_rendering
from games.models import Game, GameEvent


def transcript(
    game: Game,
    events: Sequence[GameEvent],
    seats: Sequence[games_rendering.SeatInfo],
    reader: Any,
) -> list[dict[str, Any]]:
    """Each move as `{"text": ...}`, and after the event it followed each chat line the
    reader may see as `{"message": ..., "reaction": ...}`."""
    said = rendering.visible_to(
        Message.objects.filter(game=game).select_related("author"), reader
    ).order_by("after_seq", "id")
    pending = list(said)
    lines: list[dict[str, Any]] = []

    def chat_up_to(seq: float) -> None:
        while pending and pending[0].after_seq <= seq:
            lines.append({**rendering.line_context(pending.pop(0)), "tools": False})

    chat_up_to(0)
    for event in events:
        lines += [{"text": text} for text in games_rendering.log_entries([event.data], seats, None)]
        chat_up_to(event.seq)
    chat_up_to(float("inf"))
    return lines
