"""What the writers refuse with: a text the player reads."""

from __future__ import annotations


class GameError(Exception):
    """A request that cannot be carried out; the text says why, for the player."""


class StaleCommand(GameError):
    """A click made on a screen that no longer shows the game as it is."""
