"""How fast the rules engine plays: random games through the public API only.

At each step: the legal actions of every seat, a random seat among those that have one, a
random action of that seat; when nobody can act, ``tick`` to the next deadline. Prints, for 2,
3 and 4 players, games per second and microseconds per applied action (the ``legal_actions``
calls and ticks included).

    PYTHONPATH=. python benchmarks/engine.py [--games N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from games.engine import Deal, Game


def play(players: int, seed: int) -> int:
    """One random game; returns the number of actions applied."""
    rng = random.Random(seed)
    game = Game.start(Deal.shuffled(players, seed))
    seats = range(players)
    now = 0.0
    applied = 0
    while game.phase != "over":
        choices = [(seat, actions) for seat in seats if (actions := game.legal_actions(seat))]
        if choices:
            seat, actions = rng.choice(choices)
            game.apply(seat, rng.choice(actions), now)
            applied += 1
        else:
            now = game.deadline or now
            game.tick(now)
    return applied


def measure(players: int, games: int) -> tuple[float, float]:
    """Games per second and microseconds per applied action."""
    applied = 0
    start = time.perf_counter()
    for seed in range(games):
        applied += play(players, seed)
    elapsed = time.perf_counter() - start
    return games / elapsed, elapsed / applied * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--profile", action="store_true", help="profile 4-player games")
    args = parser.parse_args()
    if args.profile:
        cProfile.run(f"measure(4, {args.games})", "engine.prof")
        pstats.Stats("engine.prof").sort_stats("tottime").print_stats(15)
        return
    for players in (2, 3, 4):
        per_second, micros = measure(players, args.games)
        print(f"{players} players: {per_second:8.0f} games/s  {micros:6.2f} µs per action")


if __name__ == "__main__":
    main()
