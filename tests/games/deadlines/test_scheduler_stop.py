"""A scheduler asked to stop (SIGTERM to `run_scheduler`) stops within a second and gives
back the games it claimed, so another scheduler fires them at once rather than when the
claims would have run out."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from games import clock
from games.deadlines import scheduler
from games.models import Game
from tests.support.processes import OwnRedis, Processes
from tests.support.tables import games_of_bots

pytestmark = pytest.mark.usefixtures("ledger_audit")


@pytest.mark.django_db(transaction=True)
def test_a_stopping_scheduler_gives_back_the_games_it_claimed(frozen_clock):
    thinking, fired, other = games_of_bots(3, frozen_clock)
    now = frozen_clock.advance(3.1)
    due = {g.pk: clock.to_datetime(now - 3 + i) for i, g in enumerate((thinking, fired, other))}
    for pk, deadline in due.items():
        Game.objects.filter(pk=pk).update(deadline_at=deadline)
    claims = [scheduler.claim_game(now)[0] for _ in range(2)]
    assert {c.game for c in claims if c is not None} == {thinking.pk, fired.pk}
    scheduler._thinking[thinking.pk] = next(c for c in claims if c and c.game == thinking.pk)
    Game.objects.filter(pk=fired.pk).update(deadline_at=clock.to_datetime(now + 2))

    scheduler.give_back_claims()

    deadlines = dict(Game.objects.values_list("pk", "deadline_at"))
    assert deadlines[thinking.pk] == due[thinking.pk]
    assert deadlines[fired.pk] == clock.to_datetime(now + 2)
    assert deadlines[other.pk] == due[other.pk]
    assert scheduler._thinking == {}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("redis_down", [False, True], ids=["redis up", "redis down"])
def test_run_scheduler_ends_within_a_second_of_sigterm(tmp_path: Path, redis_down: bool):
    redis = OwnRedis()
    redis.start()
    processes = Processes(tmp_path)
    try:
        processes.scheduler("scheduler", REDIS_URL=redis.url)
        processes.wait_for_output("scheduler", "Scheduler running.")
        time.sleep(1.0)
        if redis_down:
            redis.kill()
            time.sleep(1.0)
        process = processes.running.pop("scheduler")
        asked = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=15)
        took = time.monotonic() - asked
    finally:
        processes.stop_all()
        if not redis_down:
            redis.kill()
    assert process.returncode == 0, (tmp_path / "scheduler.log").read_text()
    assert took < 1.0
