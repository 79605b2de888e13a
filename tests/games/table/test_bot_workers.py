from __future__ import annotations

import os
import time

import pytest

from accounts.models import User
from games import clock
from games.deadlines import scheduler
from games.models import Game
from games.table import bot_workers, play, tables
from tests.support.tables import Clock, open_table, start_when_due


def strong_bot_and_autopilot(host: User, frozen_clock: Clock) -> Game:
    """A two-seat game whose person left: a strong bot and the autopilot play it."""
    table = open_table(host, stake=0)
    tables.add_bot(table.pk, host, "strong")
    game = start_when_due(table, frozen_clock)
    tables.leave(table.pk, host)
    return game


def never_here(*args: object, **kwargs: object) -> None:
    raise AssertionError("the strong bot searched in the process that writes the game")


@pytest.mark.django_db(transaction=True)
def test_r16_a_strong_bot_searches_in_a_worker_process_never_in_the_game_writers(
    anna, frozen_clock, monkeypatch
):
    monkeypatch.setattr("games.bots.strong.choose_strong", never_here)
    monkeypatch.setattr("games.bots.choose_strong", never_here)
    game = strong_bot_and_autopilot(anna, frozen_clock)
    strong_moves = 0
    for _ in range(60):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        frozen_clock.past_deadline(game)
        assert play.tick(game.pk) is True
        strong_moves = game.events.filter(seat=1, data__by="bot").count()
    assert strong_moves >= 3


@pytest.mark.django_db(transaction=True)
def test_r16_the_scheduler_keeps_its_claim_while_a_strong_bot_thinks_and_fires_when_it_decided(
    anna, frozen_clock
):
    game = strong_bot_and_autopilot(anna, frozen_clock)
    for _ in range(60):
        game.refresh_from_db()
        frozen_clock.past_deadline(game)
        claim, _ahead = scheduler.claim_game(clock.now())
        assert claim is not None and claim.game == game.pk
        if scheduler.fire_claimed(claim):
            continue
        thinking_at = Game.objects.get(pk=game.pk)
        assert thinking_at.version == game.version
        assert thinking_at.deadline_at == claim.until, "another scheduler must pass it over"
        give_up = time.monotonic() + 30
        while not bot_workers.workers().waiting():
            assert time.monotonic() < give_up, "the worker never decided"
            time.sleep(0.01)
        assert scheduler.fire_due_games(1.0) == 1
        assert Game.objects.get(pk=game.pk).version == game.version + 1
        assert not bot_workers.workers().thinking_about(game.pk)
        return
    raise AssertionError("the strong bot never had to think")


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle scheduling class")
def test_a_strong_bots_worker_runs_only_on_what_the_site_leaves_of_the_cores():
    workers = bot_workers.Workers(1)
    try:
        policy = workers.executor().submit(os.sched_getscheduler, 0).result(timeout=30)
    finally:
        workers.shutdown()
    assert policy == os.SCHED_IDLE


def test_a_worker_that_may_not_enter_the_idle_class_thinks_at_a_lower_priority(monkeypatch):
    def refused(*args: object) -> None:
        raise PermissionError("not allowed here")

    niced: list[int] = []
    monkeypatch.setattr(os, "sched_setscheduler", refused, raising=False)
    monkeypatch.setattr(os, "nice", niced.append)
    bot_workers._lower_priority()
    assert niced == [bot_workers.WORKER_NICENESS]
