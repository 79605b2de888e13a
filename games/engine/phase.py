"""Where a round stands (ENGINE ``phase``)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Equal to its string (``Phase.LEAD == "lead"``), so views and stored games hold plain
    strings."""

    LEAD = "lead"
    """Waiting for the round's attacker to lead (R4)."""
    DEFEND = "defend"
    """Unbeaten cards on the table and no take (R5–R8)."""
    CLOSING = "closing"
    """Everything beaten or taken: the window of R10."""
    OVER = "over"
    """The game has ended (R13)."""
