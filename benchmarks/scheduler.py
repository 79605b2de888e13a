"""How late deadlines fire: bot-only tables play for a while under the real scheduler.

Run: .venv/bin/python benchmarks/scheduler.py [--tables 20] [--seconds 30]
Uses a fresh SQLite file (or DATABASE_URL) and the in-memory channel layer unless
REDIS_URL is set. Prints the lateness of every fired deadline: p50, p99, max; and the CPU
each fired game cost this process and, on PostgreSQL, the database server's processes (all
of them on the machine, so run it on a quiet one).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def configure() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings_tests")
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def seat_bot_tables(count: int) -> None:
    """Tables of one autopiloted person and three bots: every move is a scheduled one."""
    from accounts.services import create_player
    from benchmarks.fixtures import table_with_three_bots
    from games.models import Seat

    for index in range(count):
        host = create_player(f"host{index}", "a-long-enough-password-42")
        table_with_three_bots(host, f"Bench {index}")
        Seat.objects.filter(player=host).update(left=True)


async def measure(seconds: float) -> list[float]:
    from games.deadlines import scheduler, timing

    lateness: list[float] = []
    original = timing.fired

    def timed(kind: str, key: int, deadline: float, at: float) -> None:
        original(kind, key, deadline, at)
        if kind == "game":
            lateness.append(at - deadline)

    timing.fired = timed
    runner = scheduler.Scheduler()
    task = asyncio.create_task(runner.run())
    await asyncio.sleep(seconds)
    runner.stop()
    await task
    return lateness


def database_cpu_seconds() -> float:
    """The CPU the machine's PostgreSQL processes have used, from /proc (0 without them)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    options = parser.parse_args()
    configure()
    seat_bot_tables(options.tables)
    started = time.perf_counter()
    own, database = own_cpu_seconds(), database_cpu_seconds()
    lateness = asyncio.run(measure(options.seconds))
    own, database = own_cpu_seconds() - own, database_cpu_seconds() - database
    elapsed = time.perf_counter() - started
    if not lateness:
        print("no deadline fired")
        return
    ms = [value * 1000 for value in lateness]
    print(
        f"{options.tables} tables of 4 bots, {elapsed:.0f} s: {len(ms)} deadlines fired "
        f"({len(ms) / elapsed:.1f}/s)"
    )
    print(
        f"lateness ms: p50 {statistics.median(ms):.1f}  p90 {percentile(ms, 0.9):.1f}  "
        f"p99 {percentile(ms, 0.99):.1f}  max {max(ms):.1f}"
    )
    print(
        f"CPU ms per fired game: this process {own * 1000 / len(ms):.2f}, "
        f"the database's processes {database * 1000 / len(ms):.2f}"
    )


if __name__ == "__main__":
    main()
