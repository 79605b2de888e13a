"""Where a round stands (ENGINE ``phase``), each seat's part in it (``roles``) and what the
deadline ends (``waiting_for``).

Each is equal to its string (``Phase.LEAD == "lead"``), so views and stored games hold plain
strings."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    LEAD = "lead"
    """Waiting for the round's attacker to lead (R4)."""
    DEFEND = "defend"
    """Unbeaten cards on the table and no take (R5–R8)."""
    CLOSING = "closing"
    """Everything beaten or taken: the window of R10."""
    OVER = "over"
    """The game has ended (R13)."""


class Role(StrEnum):
    ATTACKER = "attacker"
    """Still in the game and not defending: leads or throws in (R4, R7)."""
    DEFENDER = "defender"
    """Defends this round (R5), until a transfer passes it on (R6)."""
    FINISHED = "finished"
    """Left the game without cards once the talon was empty (R13); at the end, every seat
    but the durak."""
    DURAK = "durak"
    """The last one holding cards (R13)."""
    SPECTATOR = "spectator"
    """Whoever watches without a seat (``view(None)``); never one of a view's ``roles``."""


class Waiting(StrEnum):
    LEAD = "lead"
    """The attacker's lead (R15)."""
    DEFENCE = "defence"
    """The defender's answer to the unbeaten cards (R15)."""
    WINDOW = "window"
    """The others' throw-ins: the closing window (R10)."""
    CLOSE = "close"
    """Nobody can or will throw in: the round closes after the short delay (R10)."""
