"""Bot strength: match win rates with 95% confidence intervals (Wilson), seats rotated.

    python benchmarks/bots.py [--games N] [--strong-games N] [--budget SECONDS] [--playouts N]
                              [--workers N] [--only easy|strong]

Each pairing seats one bot of the first level ("the hero") against the other level at every
other seat; game i deals ``Deal.shuffled(players, i)`` and puts the hero at seat i mod players.
Two players: a win is not being the durak; draws (nobody is the durak) are counted as half a win
and also reported apart; a game stopped after 5,000 actions (bots passing the same cards back and
forth) counts as a draw. Three players: the rate of not being the durak, the average share of the
bank (R14: 80/20/0) and the average place. Time per decision is measured around ``choose``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import Action, choose  # noqa: E402
from games.bots.turns import play_out, share  # noqa: E402
from games.engine import Deal, Game  # noqa: E402

Player = Callable[[Game, int], Action]
GAME_ACTIONS = 5000
"""A game still running after this many actions (bots passing cards back and forth for ever)
is stopped and counted as a draw of the seats still in it."""


@dataclass(frozen=True)
class Pairing:
    hero: str
    rival: str
    players: int
    games: int


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    draws: int = 0
    not_durak: int = 0
    share: float = 0.0
    place: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0

    def add(self, other: Tally) -> None:
        for name in ("games", "wins", "draws", "not_durak", "share", "place", "decisions"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.seconds += other.seconds
        self.slowest = max(self.slowest, other.slowest)


@dataclass(frozen=True)
class Config:
    budget: float
    playouts: int | None


def bot(level: str, rng: random.Random, config: Config, tally: Tally | None) -> Player:
    def player(game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if level == "random":
            return rng.choice(legal)
        started = time.perf_counter()
        action = choose(
            game.view(seat),
            legal,
            rng,
            level,  # type: ignore[arg-type]
            budget=config.budget,
            playouts=config.playouts,
        )
        if tally is not None:
            spent = time.perf_counter() - started
            tally.decisions += 1
            tally.seconds += spent
            tally.slowest = max(tally.slowest, spent)
        return action

    return player


def place_of(game: Game, seat: int) -> float:
    """The average of the places the seat's finishing group occupies; the durak is last."""
    place = 1
    for group in game.finished:
        if seat in group:
            return place + (len(group) - 1) / 2
        place += len(group)
    return float(game.players)


def play(pairing: Pairing, number: int, config: Config) -> Tally:
    tally = Tally()
    rng = random.Random(number)
    hero = number % pairing.players
    players = [
        bot(pairing.hero, rng, config, tally)
        if seat == hero
        else bot(pairing.rival, rng, config, None)
        for seat in range(pairing.players)
    ]
    game = Game.start(Deal.shuffled(pairing.players, number))
    play_out(game, players, most_actions=GAME_ACTIONS)
    part = share(game, hero)
    tally.games = 1
    tally.draws = int(game.durak is None)
    tally.not_durak = int(game.durak != hero)
    tally.wins = part if pairing.players == 2 else float(game.durak != hero)
    tally.share = part
    tally.place = place_of(game, hero)
    return tally


def play_many(pairing: Pairing, first: int, count: int, config: Config) -> Tally:
    total = Tally()
    for number in range(first, first + count):
        total.add(play(pairing, number, config))
    return total


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def run(pairing: Pairing, config: Config, workers: int) -> Tally:
    chunk = max(1, pairing.games // (workers * 4))
    starts = range(0, pairing.games, chunk)
    total = Tally()
    with ProcessPoolExecutor(workers) as pool:
        futures = [
            pool.submit(play_many, pairing, s, min(chunk, pairing.games - s), config)
            for s in starts
        ]
        for future in futures:
            total.add(future.result())
    return total


def report(pairing: Pairing, tally: Tally, wall: float) -> str:
    n = tally.games
    low, high = wilson(tally.wins, n)
    ms = 1000 * tally.seconds / max(tally.decisions, 1)
    head = f"{pairing.hero} vs {pairing.rival}, {pairing.players} players, {n} games:"
    if pairing.players == 2:
        result = (
            f"wins {tally.wins / n:.1%} [{low:.1%}, {high:.1%}] (draws {tally.draws}, "
            "counted as half)"
        )
    else:
        result = (
            f"not durak {tally.not_durak / n:.1%} [{low:.1%}, {high:.1%}] "
            f"(chance 66.7%), bank share {tally.share / n:.1%} (chance 33.3%), "
            f"average place {tally.place / n:.2f}"
        )
    timing = f"{ms:.2f} ms a decision ({tally.decisions} decisions, slowest "
    timing += f"{1000 * tally.slowest:.1f} ms), {wall:.0f} s"
    return f"{head} {result}; {pairing.hero}: {timing}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per easy pairing")
    parser.add_argument("--strong-games", type=int, default=500, help="games per strong pairing")
    parser.add_argument("--budget", type=float, default=0.05, help="strong seconds a decision")
    parser.add_argument(
        "--playouts", type=int, help="strong: deals a decision (the budget stays a cap)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=("easy", "strong"), help="run only one hero level")
    args = parser.parse_args()
    pairings = [
        Pairing("easy", "random", 2, args.games),
        Pairing("easy", "random", 3, args.games),
        Pairing("strong", "easy", 2, args.strong_games),
        Pairing("strong", "easy", 3, args.strong_games),
    ]
    config = Config(args.budget, args.playouts)
    deals = "" if args.playouts is None else f", {args.playouts} deals"
    print(f"strong: budget {1000 * args.budget:.0f} ms a decision{deals}; {args.workers} workers")
    for pairing in pairings:
        if args.only and pairing.hero != args.only:
            continue
        started = time.perf_counter()
        tally = run(pairing, config, args.workers)
        print(report(pairing, tally, time.perf_counter() - started), flush=True)


if __name__ == "__main__":
    main()
