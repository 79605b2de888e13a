"""How fast a version's pictures are drawn: random games through the engine, and after each
action the section of every audience of the benchmark's tables (the spectators in one
language, the person's seat in another) built and told as changes since the version before,
as a writer does after every commit (`games.picture.pieces`). No database, no sockets.

Prints microseconds per version (all audiences) and how many pieces a version draws that
were not drawn before, by piece: the best of `--repeat` runs of the same games.

    .venv/bin/python benchmarks/pictures.py [--games N] [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings_tests")

import django  # noqa: E402

django.setup()

from django.utils import translation  # noqa: E402

from games.engine import Deal, Game  # noqa: E402
from games.models import SeatInfo  # noqa: E402
from games.picture import movelog, pieces  # noqa: E402

AUDIENCES = ((None, "ru"), (None, "en"), (0, "ru"))
"""Who reads each version: the spectators in two languages and the person at seat 0."""
LONGEST = 400


def names(game: int) -> list[SeatInfo]:
    person = SeatInfo(0, f"player{game}", False, "", False, False)
    bots = [SeatInfo(seat, "", True, "easy", False, False) for seat in range(1, 4)]
    return [person, *bots]


def play(seed: int) -> tuple[int, float]:
    """One random game with every version drawn; its versions and the seconds drawing took."""
    random = Random(seed).random
    game = Game.start(Deal.shuffled(4, seed))
    seated = names(seed)
    shown: dict[tuple[int | None, str], pieces.Section] = {}
    now, version, drawing = 0.0, 1, 0.0
    while game.phase != "over" and version < LONGEST:
        choices = [(seat, actions) for seat in range(4) if (actions := game.legal_actions(seat))]
        if choices:
            seat, actions = choices[int(random() * len(choices))]
            events = game.apply(seat, actions[int(random() * len(actions))], now)
        else:
            deadline = game.deadline
            assert deadline is not None, "a game that is not over always has a deadline"
            now = deadline
            events = game.tick(now)
        version += 1
        started = time.perf_counter()
        headline = movelog.headline([dict(event) for event in events], seated)
        for audience in AUDIENCES:
            seat_of, language = audience
            with translation.override(language):
                section = pieces.section(
                    seed, version, game, seated, seat_of, now=now, headline=headline
                )
                earlier = shown.get(audience)
                if earlier is None:
                    section.draw()
                else:
                    section.changes_since(earlier)
            shown[audience] = section
        drawing += time.perf_counter() - started
    return version - 1, drawing


def measure(games: int, repeat: int) -> tuple[float, Counter[str], int]:
    """Microseconds per version, the best of `repeat` runs (each from an empty cache of drawn
    pieces), the pieces drawn anew in the last run, by name, and its versions."""
    counted: Counter[str] = Counter()
    drawn = pieces.draw_anew

    def counting(template: str, id: str, context: dict[str, Any], oob: bool) -> str:
        counted[template] += 1
        return drawn(template, id, context, oob)

    pieces.draw_anew = counting
    best = float("inf")
    versions = 0
    for _ in range(repeat):
        pieces.drawn_piece.cache_clear()
        counted.clear()
        versions, seconds = 0, 0.0
        for seed in range(games):
            played, drawing = play(seed)
            versions += played
            seconds += drawing
        best = min(best, seconds / versions * 1e6)
    pieces.draw_anew = drawn
    return best, counted, versions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3, help="runs of those games; best counts")
    args = parser.parse_args()
    micros, counted, versions = measure(args.games, args.repeat)
    print(f"{versions} versions, {len(AUDIENCES)} audiences: {micros:.0f} µs per version")
    drawn = ", ".join(f"{name} {count / versions:.2f}" for name, count in counted.most_common())
    print(f"pieces drawn anew per version: {drawn}")


if __name__ == "__main__":
    main()
