"""What a spectator's reconnect costs the server, part by part: a four-seat table of a person
and three bots, its game played `--versions` versions in (the bots and the autopilot
moving at their deadlines), on a throwaway SQLite file; then each part a table socket
(`games.live.consumers.TableConsumer`) computes for a spectator who connects: who may watch
(`snapshots.access`), the whole picture with the game's log (`snapshots.render`) and the
chat's lines (`chat.rendering.render_lines`), each called `--calls` times in Russian.

Prints microseconds per call of each part, the best of `--repeat` runs.

    .venv/bin/python benchmarks/reconnect.py [--versions N] [--calls C] [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings_tests")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import AnonymousUser  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.utils import translation  # noqa: E402

from accounts.services import create_player  # noqa: E402
from benchmarks.fixtures import table_with_three_bots  # noqa: E402
from chat import rendering  # noqa: E402
from games import clock  # noqa: E402
from games.live import snapshots  # noqa: E402
from games.models import Game, Table  # noqa: E402
from games.table import play, tables  # noqa: E402

LANGUAGE = "ru"


def played_table(versions: int) -> int:
    """A running four-seat table whose game has had `versions` versions, or fewer if it
    ended before: its id. Each version is the game's next deadline fired at that moment."""
    host = create_player("reconnecting", "a-long-enough-password-42")
    table = table_with_three_bots(host, "Reconnect")
    Table.objects.filter(pk=table.pk).update(starts_at=clock.to_datetime(clock.now()))
    game = play.start(table.pk)
    assert game is not None, "a full table whose start time came starts"
    tables.leave(table.pk, host)
    while game.version < versions and game.status == Game.Status.RUNNING:
        assert game.deadline_at is not None, "a running game always has a deadline"
        fired = play.tick(game.pk, clock.to_seconds(game.deadline_at))
        assert fired, "a running game's deadline always fires"
        game.refresh_from_db()
    return table.pk


def parts(table_id: int) -> dict[str, Callable[[], object]]:
    spectator = AnonymousUser()
    return {
        "access": lambda: snapshots.access(table_id, spectator),
        "snapshot": lambda: snapshots.render(table_id, None),
        "chat lines": lambda: rendering.render_lines(table_id, spectator),
    }


def measure(table_id: int, calls: int, repeat: int) -> dict[str, float]:
    """Microseconds per call of each part, the best of `repeat` runs of `calls` calls."""
    best: dict[str, float] = {}
    with translation.override(LANGUAGE):
        for name, part in parts(table_id).items():
            part()
            runs = []
            for _ in range(repeat):
                started = time.perf_counter()
                for _ in range(calls):
                    part()
                runs.append((time.perf_counter() - started) / calls * 1e6)
            best[name] = min(runs)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", type=int, default=60)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5, help="runs of the calls; best counts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = connections["default"].settings_dict
        database["NAME"] = str(Path(folder) / "reconnect.sqlite3")
        call_command("migrate", verbosity=0)
        table_id = played_table(args.versions)
        version = Game.objects.filter(table_id=table_id).values_list("version", flat=True).get()
        print(f"a spectator's reconnect at version {version} of a four-seat game:")
        for name, micros in measure(table_id, args.calls, args.repeat).items():
            print(f"  {name}: {micros:.0f} µs")
        connections.close_all()


if __name__ == "__main__":
    main()
