"""Positions from random games: every seat that may act, at every moment of a game."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.engine import Deal, Game, Lead


def random_positions(seed: int, players: int) -> Iterator[tuple[Game, int]]:
    """Play a game with random actions by random seats, yielding (game, seat) for every seat that
    may act before each move. The game must not be changed by the caller."""
    rng = random.Random(seed)
    game = Game.start(Deal.shuffled(players, seed))
    now = 0.0
    while game.phase != "over":
        seats = [seat for seat in range(players) if game.legal_actions(seat)]
        for seat in seats:
            yield game, seat
        if not seats or rng.random() < 0.05:
            deadline = game.deadline
            assert deadline is not None
            now = max(now, deadline)
            game.tick(now)
            continue
        seat = rng.choice(seats)
        now += 0.1
        game.apply(seat, rng.choice(game.legal_actions(seat)), now)


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
