"""Where a failure happened, for the error log: the table, its game and the game's version.

Read only once something has failed, and never failing itself (what cannot be read is
`None`). A place is both the log record's `extra=` (its `table`, `game` and `version`)
and, through `described`, the words of the log line.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from games.models import Game, Seat

logger = logging.getLogger(__name__)

NAMES = ("table", "game", "version")
Place = dict[str, int | None]


def game_place(game_id: int) -> Place:
    row = Game.objects.filter(pk=game_id).values("table_id", "version").first()
    return {"table": row and row["table_id"], "game": game_id, "version": row and row["version"]}


def table_place(table_id: int) -> Place:
    """The table's latest game: the one running, if any."""
    games = Game.objects.filter(table_id=table_id).order_by("-started_at")
    row = games.values("pk", "version").first()
    return {"table": table_id, "game": row and row["pk"], "version": row and row["version"]}


def seat_place(seat_id: int) -> Place:
    table_id = Seat.objects.filter(pk=seat_id).values_list("table_id", flat=True).first()
    return table_place(table_id) if table_id is not None else {}


DEADLINES: dict[str, Callable[[int], Place]] = {
    "game": game_place,
    "start": table_place,
    "standup": seat_place,
}


def place_of(read: Callable[[int], Place], key: int) -> Place:
    """`read(key)` with every name present; `None` for what could not be read."""
    try:
        place = read(key)
    except Exception:
        logger.warning("could not read where a failure happened", exc_info=True)
        place = {}
    return {name: place.get(name) for name in NAMES}


def of_table(table_id: int) -> Place:
    return place_of(table_place, table_id)


def of_deadline(kind: str, key: int) -> Place:
    """A scheduler's deadline: a game's, a table's start or a seat's grace after a game."""
    return place_of(DEADLINES[kind], key)


def described(place: Place) -> str:
    return ", ".join(f"{name} {'?' if place[name] is None else place[name]}" for name in NAMES)
