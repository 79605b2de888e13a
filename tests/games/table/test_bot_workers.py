from __future__ import annotations

import os
import random
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from accounts.models import User
from games import clock
from games.bots import Search, choose
from games.deadlines import scheduler
from games.engine import Action, Deal, View
from games.engine import Game as EngineGame
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
        fires_once_it_decided(game)
        return
    raise AssertionError("the strong bot never had to think")


def fires_once_it_decided(game: Game) -> None:
    """Wait for the strong bot's decision; the next pass fires the game with it."""
    give_up = time.monotonic() + 30
    while not bot_workers.workers().waiting():
        assert time.monotonic() < give_up, "the worker never decided"
        time.sleep(0.01)
    assert scheduler.fire_due_games(1.0) == 1
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    assert not bot_workers.workers().thinking_about(game.pk)


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
    monkeypatch.setattr(bot_workers, "_join_the_idle_group", lambda: None)
    bot_workers._lower_priority()
    assert niced == [bot_workers.WORKER_NICENESS]


def may_make_cgroups() -> bool:
    root = bot_workers.CGROUP_ROOTS[0]
    return (root / "cpu.idle").exists() and os.access(root, os.W_OK)


@pytest.mark.skipif(not may_make_cgroups(), reason="a cgroup v1 cpu controller this user may use")
def test_a_strong_bots_worker_thinks_in_a_cgroup_that_yields_to_every_other_process():
    workers = bot_workers.Workers(1)
    try:
        cgroups = workers.executor().submit(Path("/proc/self/cgroup").read_text).result(30)
    finally:
        workers.shutdown()
    cpu = next(line for line in cgroups.splitlines() if line.split(":")[1] == "cpu")
    assert cpu.endswith(f":/{bot_workers.IDLE_GROUP}")
    group = bot_workers.CGROUP_ROOTS[0] / bot_workers.IDLE_GROUP
    assert (group / "cpu.idle").read_text().strip() == "1"


def test_a_worker_that_may_not_join_an_idle_cgroup_keeps_its_class_alone(tmp_path, monkeypatch):
    not_a_cgroup = tmp_path / "plain"
    not_a_cgroup.mkdir()
    refused = tmp_path / "cpu"
    refused.mkdir()
    (refused / "cpu.idle").write_text("0")
    (refused / bot_workers.IDLE_GROUP).write_text("a file where the group would be")
    monkeypatch.setattr(bot_workers, "CGROUP_ROOTS", (not_a_cgroup, refused))
    bot_workers._join_the_idle_group()
    assert list(not_a_cgroup.iterdir()) == []
    assert (refused / bot_workers.IDLE_GROUP).is_file()


def attackers_turn(seed: int) -> tuple[View, list[Action]]:
    game = EngineGame.start(Deal.shuffled(3, seed))
    return game.view(game.attacker), game.legal_actions(game.attacker)


def test_a_decision_that_waited_past_its_answer_time_is_the_easy_bots_choice():
    for seed in range(5):
        view, legal = attackers_turn(seed)
        long_ago = time.monotonic() - 1.0
        late = bot_workers.think(view, legal, f"seed {seed}", "strong", long_ago)
        assert late == choose(view, legal, random.Random(seed), "easy")


def test_a_search_thinks_only_for_what_is_left_until_its_answer_is_due(monkeypatch):
    budgets: list[float] = []

    def searched(knowledge: object, legal: list[Action], rng: object, search: Search) -> Action:
        budgets.append(search.budget)
        return legal[0]

    monkeypatch.setattr("games.bots.choose_strong", searched)
    view, legal = attackers_turn(1)
    for answer_in in (10.0, 0.02, -0.01):
        bot_workers.think(view, legal, "seed", "strong", time.monotonic() + answer_in)
    in_time, nearly_due, overdue = budgets
    assert in_time == Search.budget
    assert 0.0 < nearly_due <= 0.02
    assert overdue == 0.0


def test_a_question_is_owed_its_answer_soon_after_it_is_asked(monkeypatch):
    submitted: list[tuple[object, ...]] = []

    class Recording:
        def submit(self, *call: object) -> Future[Action]:
            submitted.append(call)
            return Future()

    workers = bot_workers.Workers(1)
    monkeypatch.setattr(workers, "executor", Recording)
    view, legal = attackers_turn(2)
    before = time.monotonic()
    workers.ask(bot_workers.Question(game=1, version=3, seat=0), view, legal, "seed")
    after = time.monotonic()
    (call,) = submitted
    answer_by = call[-1]
    assert isinstance(answer_by, float)
    within = bot_workers.ANSWER_WITHIN_SECONDS
    assert before + within <= answer_by <= after + within


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_r16_on_postgresql_a_game_locked_to_fire_keeps_a_claim_while_its_strong_bot_thinks(
    anna, frozen_clock
):
    game = strong_bot_and_autopilot(anna, frozen_clock)
    for _ in range(60):
        game.refresh_from_db()
        frozen_clock.past_deadline(game)
        if scheduler.fire_due_games(1.0):
            continue
        thinking_at = Game.objects.get(pk=game.pk)
        assert thinking_at.version == game.version
        assert thinking_at.deadline_at == clock.to_datetime(
            clock.now() + scheduler.CLAIM_SECONDS
        ), "its transaction ended: the claim is in its deadline column, for others to pass over"
        assert thinking_at.writer == scheduler.WRITER
        assert game.pk in scheduler._thinking
        fires_once_it_decided(game)
        return
    raise AssertionError("the strong bot never had to think")
