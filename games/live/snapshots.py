"""What a connection may see when it (re)connects: the full picture for its audience."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from games import rows
from games.picture import movelog, scene

LOG_LINES = 60
CLOSED_TABLE = gettext_lazy("This table was closed.")
PRIVATE_TABLE = gettext_lazy("This table is private: ask its players for the invite link.")


@dataclass(frozen=True)
class Access:
    seat: int | None = None
    refusal: Promise | None = None
    """Why the connection may not see the table (None: it may)."""


def access(table_id: int, user: Any, invite: str = "") -> Access:
    person = user.pk if user is not None and user.is_authenticated else None
    found = rows.table_access(table_id, person)
    if found is None:
        return Access(refusal=CLOSED_TABLE)
    private, invite_code, position = found
    if position is not None:
        return Access(position)
    if private and invite != invite_code:
        return Access(refusal=PRIVATE_TABLE)
    return Access()


@dataclass(frozen=True)
class Snapshot:
    html: str
    game: int | None
    """The running game the picture draws, at `version`; both None for the waiting room."""
    version: int | None


def render(table_id: int, seat: int | None) -> Snapshot:
    """The table for one seat (or the spectators) in the active language, with its log."""
    audience = scene.Audience(seat, translation.get_language())
    now = scene.of_table(table_id, log_lines=LOG_LINES)
    game = now.game or now.last
    earlier = movelog.earlier_games(table_id, game.pk if game else None)
    log = movelog.render_log(list(now.log), scene.names_in_log(now), seat, earlier)
    drawn = now.game.pk if now.game is not None else None
    return Snapshot(scene.render(now, audience) + log, drawn, now.version)
