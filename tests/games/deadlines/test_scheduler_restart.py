"""The embedded scheduler starts with the server: after `kill -9` and a restart, a game
nobody is watching goes on to its end."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.processes import free_port, wait_for_port

ROOT = Path(__file__).resolve().parents[3]

# A game between a bot and a player who left (the autopilot plays for them), with two
# cards each and a talon of two: a handful of bot moves from its end.
SETUP = """
from accounts.services import create_player
from games import clock
from games.table import play, tables
from games.engine import Deal, Game as EngineGame, Rules
from games.models import Game, Table

anna = create_player("anna", "anna-plays-durak")
table = tables.create_table(
    anna, stake=0, seats=2, name="Restart", move_time=10, bots_allowed=True, private=False
)
tables.add_bot(table.pk, anna, "easy")
Table.objects.filter(pk=table.pk).update(starts_at=clock.to_datetime(clock.now()))
game = play.start(table.pk)
tables.leave(table.pk, anna)
engine = EngineGame.start(
    Deal(hands=[["6S", "7S"], ["8S", "9H"]], talon=["QD", "KH"]),
    Rules(move_time=10.0),
    attacker=0,
    now=clock.now(),
)
Game.objects.filter(pk=game.pk).update(
    state=engine.to_dict(), bot_moves={}, deadline_at=clock.to_datetime(clock.now() + 1.0)
)
print(game.pk)
"""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[dict[str, str]]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DJANGO_DEBUG": "1",
        "SQLITE_PATH": str(tmp_path / "site.sqlite3"),
        "DURAK_EMBEDDED_SCHEDULER": "1",
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    manage = [sys.executable, "manage.py"]
    subprocess.run(
        [*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True
    )
    yield env


def serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    daphne = str(Path(sys.executable).with_name("daphne"))
    return subprocess.Popen(
        [daphne, "-b", "127.0.0.1", "-p", str(port), "durak_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("ab"),
    )


def game_row(env: dict[str, str], game_id: int) -> tuple[str, int]:
    with sqlite3.connect(env["SQLITE_PATH"], timeout=20) as db:
        status, version = db.execute(
            "SELECT status, version FROM games_game WHERE id = ?", (game_id,)
        ).fetchone()
    return status, version


def test_after_kill_9_and_a_restart_a_game_nobody_watches_plays_to_its_end(site, tmp_path):
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SETUP],
        cwd=ROOT,
        env=site,
        check=True,
        capture_output=True,
        text=True,
    )
    game_id = int(made.stdout.strip().splitlines()[-1])
    port, log = free_port(), tmp_path / "daphne.log"
    server = serve(site, port, log)
    try:
        wait_for_port(port, 30.0)
        started = game_row(site, game_id)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        server = serve(site, port, log)
        wait_for_port(port, 30.0)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and game_row(site, game_id)[0] == "running":
            time.sleep(0.5)
        status, version = game_row(site, game_id)
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
    assert started[0] == "running"
    assert status == "finished", (status, version, log.read_text()[-2000:])
    assert version > started[1]
