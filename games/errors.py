"""What the writers refuse with: a text the player reads."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import Reason


class GameError(Exception):
    """A request that cannot be carried out; the text says why, for the player."""


class StaleCommand(GameError):
    """A click made on a screen that no longer shows the game as it is."""


class SeatedElsewhere(GameError):
    """The player sits at another table: the page links it, and offers to leave it."""

    def __init__(self, message: str, table_id: int, may_leave: bool) -> None:
        super().__init__(message)
        self.table_id = table_id
        self.may_leave = may_leave


def in_words(reason: str) -> str:
    """The engine's words (a refusal, a payout's rule) in the reader's language."""
    if isinstance(reason, Reason):
        return _(reason.template).format(**reason.values)
    return reason
