"""The frames the table socket's groups carry, as the broadcast builds them and the table
consumer reads them (the layer delivers each to the handler its `type` names)."""

from __future__ import annotations

from typing import Literal, TypedDict

ByLanguage = dict[str, str]
"""HTML by language code; a seat's own picture travels under "*"."""


class TableHtml(TypedDict):
    """An audience's picture: the whole of it, or what changed since version `base`."""

    type: Literal["table.html"]
    html: ByLanguage
    version: int | None
    game: int | None
    """The game drawn; None, with `version`, for the waiting room."""
    base: int | None


class TableSeating(TypedDict):
    """Who sits where now: each seated person's position by user id."""

    type: Literal["table.seating"]
    seating: dict[str, int]


class TablePresence(TypedDict):
    """A seat's mark of whether its player is here."""

    type: Literal["table.presence"]
    html: ByLanguage


class TableNotice(TypedDict):
    """A notice for one person at the table: why they sit there no longer."""

    type: Literal["table.notice"]
    user_id: int
    html: str


class TableAnnounce(TypedDict):
    """For everyone at the table: a notice from the staff, or the site's banners (which
    the lobby and the control room get too)."""

    type: Literal["table.announce", "site.banners"]
    html: ByLanguage
