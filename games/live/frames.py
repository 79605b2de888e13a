"""The frames the table socket's groups carry, as the broadcast builds them and the table
consumer reads them (the layer delivers each to the handler its `type` names)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

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
    owner: str | None
    """Where the game's moves go (`games.live.owners`): the group of the scheduler that drew
    this frame, or None when a process that takes no moves drew it."""
    piece: NotRequired[bool]
    """A piece of the waiting room on its own (its status line): shown only where the
    waiting room is, and leaving the version shown as it was."""


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


class OwnerMove(TypedDict):
    """A person's move, from their socket to the scheduler that owns the game."""

    type: Literal["owner.move"]
    ticket: int
    reply_to: str
    """The socket's channel, for the answer."""
    user_id: int
    game: int
    text: str
    """The move as the page sent it."""
    language: str
    until: float
    """Wall-clock seconds after which the owner leaves the move to the socket's server."""


class OwnerAnswer(TypedDict):
    """The owner carried out a forwarded move: refused (and why) or not."""

    type: Literal["owner.answer"]
    ticket: int
    refusal: str | None
