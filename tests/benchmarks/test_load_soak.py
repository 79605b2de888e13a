"""The scale-out soak (`make soak`): two Daphne processes and two schedulers on PostgreSQL
and a Redis of the soak's own play 50 tables for a minute (`benchmarks/load.py --mode
scale-out`), and a fault drill strikes during it: Redis is killed and started again empty,
then one Daphne is killed with kill -9 and started again, then one scheduler. Every table
plays and none waits long (so each fault healed within that), no deadline fires more than
2 s late nor twice, no frame is lost (a version superseded by the whole picture is not
lost; a socket of the killed Daphne connects again, as the page does; one that outlives
Redis is in its groups again and catches up), and the ledger audits clean in the
database they played on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
TABLES = 50
SECONDS = 60
FAULTS = ("redis", "daphne", "scheduler")
LATEST_MS = 2000
LONGEST_WAIT_S = 10
"""A table waits for bots (1.5-3 s each) and the throw-in window, never for a move timer."""

pytestmark = [pytest.mark.cluster, pytest.mark.soak]


def soak_database() -> str:
    """A database of the soak's own beside the tests' (the benchmark drops and creates it)."""
    return os.environ["DATABASE_URL"] + "_soak"


def problems(result: dict[str, Any]) -> list[str]:
    found = []
    if result["tables_playing"] != TABLES:
        found.append(f"only {result['tables_playing']} of {TABLES} tables played")
    if result["max_idle_s"] > LONGEST_WAIT_S:
        found.append(f"a table waited {result['max_idle_s']} s")
    if result["lateness_max_ms"] > LATEST_MS:
        found.append(f"a deadline fired {result['lateness_max_ms']} ms late")
    for count in ("errors", "dropped", "in_flight"):
        if result[count]:
            found.append(f"{count}: {result[count]}")
    if not result["ledger_clean"]:
        found.append("the ledger did not audit clean")
    if result["fired_twice"]:
        found.append(f"{result['fired_twice']} deadlines fired twice")
    if sorted(result["heal_s"]) != sorted(FAULTS):
        found.append(f"the faults struck were {sorted(result['heal_s'])}")
    found += [
        f"after the {fault} fault a table waited {seconds} s"
        for fault, seconds in result["heal_s"].items()
        if seconds > LONGEST_WAIT_S
    ]
    return found


def test_fifty_tables_on_two_servers_and_two_schedulers_play_a_minute_through_crashes():
    database = soak_database()
    run = subprocess.run(
        [
            sys.executable,
            "benchmarks/load.py",
            "--mode=scale-out",
            f"--tables={TABLES}",
            f"--seconds={SECONDS}",
            "--schedulers=2",
            "--no-bare",
            f"--drill={','.join(FAULTS)}",
            f"--database-url={database}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(run.stdout.splitlines()[-1])
    print("seconds from each fault until every table had moved again:", result["heal_s"])
    assert problems(result) == [], run.stdout

    audit = subprocess.run(
        [sys.executable, "manage.py", "audit_ledger"],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "durak_site.settings",
            "DJANGO_DEBUG": "1",
            "DATABASE_URL": database,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr
