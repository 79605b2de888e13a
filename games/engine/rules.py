"""The table's settings: timers (R10, R15) and attack caps (R9)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rules:
    throw_in_window: float = 8.0
    """R10: seconds the attackers get to throw in once everything is beaten or taken."""
    close_delay: float = 1.0
    """R10: seconds before the round closes once nobody can or will throw in."""
    move_time: float = 30.0
    """R15: seconds for the attacker who must lead and the defender with unbeaten cards."""
    cap: int = 6
    """R9: most attack cards in a round."""
    first_round_cap: int = 5
    """R9: most attack cards in the first round, until the defender takes."""


DEFAULT_RULES = Rules()
