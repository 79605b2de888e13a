"""How many attack cards a round may hold (R9), and whether any more will come (R10)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def cap(game: Game) -> int:
    """R9: 5 in the first round until the defender takes, else 6."""
    rules = game.rules
    return rules.first_round_cap if game.round == 1 and not game.taken else rules.cap


def nobody_will_throw_in(game: Game) -> bool:
    """R10: every attacker who could still throw in has passed, or nobody can."""
    if len(game.attacks) >= game.limit:
        return True
    defender, passed, in_game, throwable = game.defender, game.passed, game.in_game, game.throwable
    for seat, hand in enumerate(game.hand_bits):
        if hand & throwable and seat != defender and in_game[seat] and seat not in passed:
            return False
    return True
