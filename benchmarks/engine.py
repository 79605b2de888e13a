"""How fast the rules engine plays: random games through the public API only.

At each step: the legal actions of every seat, a random seat among those that have one, a
random action of that seat; when nobody can act, ``tick`` to the next deadline. Prints, for 2,
3 and 4 players, games per second and microseconds per applied action (the ``legal_actions``
calls and ticks included).

    .venv/bin/python benchmarks/engine.py [--games N] [--repeat R] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Deal, Game  # noqa: E402


def play(players: int, seed: int) -> int:
    """One random game; returns the number of actions applied."""
    random = Random(seed).random
    game = Game.start(Deal.shuffled(players, seed))
    seats = range(players)
    now = 0.0
    applied = 0
    while game.phase != "over":
        choices = [(seat, actions) for seat in seats if (actions := game.legal_actions(seat))]
        if choices:
            seat, actions = choices[int(random() * len(choices))]
            game.apply(seat, actions[int(random() * len(actions))], now)
            applied += 1
        else:
            deadline = game.deadline
            assert deadline is not None, "a game that is not over always has a deadline"
            now = deadline
            game.tick(now)
    return applied


def measure(players: int, games: int, repeat: int = 1) -> tuple[float, float]:
    """Games per second and microseconds per applied action, the best of ``repeat`` runs of
    the same games (the others were slowed down by whatever else ran on the machine)."""
    best = float("inf")
    for _ in range(repeat):
        applied = 0
        start = time.perf_counter()
        for seed in range(games):
            applied += play(players, seed)
        best = min(best, time.perf_counter() - start)
    return games / best, best / applied * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--repeat", type=int, default=3, help="runs of those games; best counts")
    parser.add_argument("--profile", action="store_true", help="profile 4-player games")
    args = parser.parse_args()
    if args.profile:
        cProfile.run(f"measure(4, {args.games})", "engine.prof")
        pstats.Stats("engine.prof").sort_stats("tottime").print_stats(15)
        return
    for players in (2, 3, 4):
        per_second, micros = measure(players, args.games, args.repeat)
        print(f"{players} players: {per_second:8.0f} games/s  {micros:6.2f} µs per action")


if __name__ == "__main__":
    main()
