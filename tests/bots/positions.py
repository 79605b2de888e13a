"""Positions from random games: every seat that may act, at every moment of a game."""

from __future__ import annotations

from collections.abc import Iterator

from games.engine import Game, Lead
from tests.support.engine_helpers import moments


def random_positions(seed: int, players: int) -> Iterator[tuple[Game, int]]:
    """Play a game with random actions by random seats, yielding (game, seat) for every seat that
    may act before each move. The game must not be changed by the caller."""
    for game in moments(seed, players, wait=0.05):
        for seat in range(players):
            if game.legal_actions(seat):
                yield game, seat


def is_legal(game: Game, seat: int, action: object) -> bool:
    """Whether the engine accepts the action (a lead of several cards is tried on a copy)."""
    if isinstance(action, Lead) and len(action.cards) > 1:
        copy = Game.from_dict(game.to_dict())
        try:
            copy.apply(seat, action, 0.0)
        except Exception:
            return False
        return True
    return action in game.legal_actions(seat)
