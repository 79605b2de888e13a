"""Several `run_scheduler` processes on PostgreSQL share the due games and table starts:
each deadline acts once, every game goes on, every table starts once, and every scheduler
takes part: one that has fired nothing while the others kept up takes their games over once
they stop."""

from __future__ import annotations

from collections import Counter
from functools import partial
from pathlib import Path

import pytest
from django.db import connection

from accounts.models import User
from accounts.services import create_player
from games import clock
from games.models import Game, Table
from games.table import play, tables
from tests.support.processes import Processes
from tests.support.waiting import eventually

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

GAMES = 20
STARTS = 10
SCHEDULERS = 2
MOVES = 2
"""How many deadlines each game must have fired before the schedulers are stopped."""


def table_of_a_bot(index: int) -> tuple[Table, User]:
    host = create_player(f"host{index}", "a-long-enough-password-42")
    table = tables.create_table(
        host,
        name=f"Share {index}",
        stake=0,
        seats=2,
        move_time=30,
        bots_allowed=True,
        private=False,
    )
    tables.add_bot(table.pk, host)
    return table, host


def games_of_bots(count: int) -> list[int]:
    """Two-seat tables whose person left: a bot and the autopilot play, each move a
    deadline. Nothing is due until the test says so."""
    games = []
    for index in range(count):
        table, host = table_of_a_bot(index)
        Table.objects.filter(pk=table.pk).update(starts_at=clock.to_datetime(clock.now()))
        game = play.start(table.pk)
        assert game is not None
        tables.leave(table.pk, host)
        games.append(game.pk)
    Game.objects.filter(pk__in=games).update(deadline_at=clock.to_datetime(clock.now() + 3600))
    return games


def tables_to_start(count: int) -> list[int]:
    """Full tables that start when the test says so."""
    full = [table_of_a_bot(GAMES + index)[0].pk for index in range(count)]
    Table.objects.filter(pk__in=full).update(starts_at=clock.to_datetime(clock.now() + 3600))
    return full


LOADED_SECONDS = 120
"""How long a loaded machine may take: slow, never stuck."""


def until_every_game_moved(games: list[int], versions: dict[int, int]) -> None:
    """Until each game has had `MOVES` versions since `versions`."""

    def moved() -> bool:
        now = dict(Game.objects.filter(pk__in=games).values_list("pk", "version"))
        return all(now[game] >= versions[game] + MOVES for game in games)

    assert eventually(moved, LOADED_SECONDS, pause=0.2), "a game was left waiting"


def until_every_table_started(full: list[int]) -> None:
    """Until each of `full` has its game: starts are paced (`games.deadlines.admission`),
    a few at a look and none while the schedulers take up their games late, so the last
    may come after every game has moved."""

    def started() -> bool:
        return Game.objects.filter(table_id__in=full).values("table_id").distinct().count() == len(
            full
        )

    assert eventually(started, LOADED_SECONDS, pause=0.2), "a table was left waiting to start"


def fired_deadlines(log: Path, kind: str) -> list[tuple[int, str]]:
    """The deadlines of a kind a scheduler fired, from its timing log (made at its first
    line): (id, deadline)."""
    fired = []
    for line in (log.read_text() if log.exists() else "").splitlines():
        event, *fields = line.split()
        if event == "late" and fields[0] == kind:
            fired.append((int(fields[1]), fields[2]))
    return fired


def fired_a_game(log: Path) -> bool:
    return bool(fired_deadlines(log, "game"))


def until_each_took_part(running: Processes, names: list[str], logs: Path) -> None:
    """Each scheduler takes up first the games it fired last, so one quick enough to keep up
    may hold every game while the others find nothing due; for each scheduler that has fired
    no game yet, the others are frozen until it takes their games over (overdue by
    `HANDOVER_SECONDS`, or their claims ended)."""
    for name in names:
        log = logs / f"{name}.timing"
        if fired_a_game(log):
            continue
        others = [other for other in names if other != name]
        for other in others:
            running.pause(other)
        try:
            took_over = eventually(partial(fired_a_game, log), LOADED_SECONDS, pause=0.2)
        finally:
            for other in others:
                running.resume(other)
        assert took_over, f"{name} did not take over the games of the frozen schedulers"


@pytest.fixture(autouse=True)
def quiet_setup(settings):
    """The test's own writes tell nobody (the schedulers use the layer of the environment)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def test_two_schedulers_share_the_due_games_and_fire_each_deadline_once(tmp_path):
    games = games_of_bots(GAMES)
    full = tables_to_start(STARTS)
    versions_before = dict(Game.objects.filter(pk__in=games).values_list("pk", "version"))
    running = Processes(tmp_path)
    names = [f"scheduler-{n}" for n in range(SCHEDULERS)]
    try:
        for name in names:
            running.scheduler(name, DURAK_TIMING_LOG=str(tmp_path / f"{name}.timing"))
        for name in names:
            running.wait_for_output(name, "Scheduler running.")
        now = clock.to_datetime(clock.now())
        Table.objects.filter(pk__in=full).update(starts_at=now)
        Game.objects.filter(pk__in=games).update(deadline_at=now)
        until_every_game_moved(games, versions_before)
        until_each_took_part(running, names, tmp_path)
        until_every_table_started(full)
        for name in names:
            running.stop(name)
    finally:
        running.stop_all()
        connection.close()

    by_scheduler = {name: fired_deadlines(tmp_path / f"{name}.timing", "game") for name in names}
    every = [deadline for fired in by_scheduler.values() for deadline in fired]
    twice = [deadline for deadline, times in Counter(every).items() if times > 1]
    assert twice == [], "deadlines fired more than once"
    assert all(by_scheduler.values()), {name: len(f) for name, f in by_scheduler.items()}
    fires = Counter(game for game, _deadline in every)
    versions_after = dict(Game.objects.filter(pk__in=games).values_list("pk", "version"))
    assert all(fires[game] >= MOVES for game in games)
    assert {game: versions_after[game] - versions_before[game] for game in games} == {
        game: fires[game] for game in games
    }
    starts = [s for name in names for s in fired_deadlines(tmp_path / f"{name}.timing", "start")]
    assert sorted(table for table, _at in starts) == sorted(full)
    assert all(Game.objects.filter(table_id=table).count() == 1 for table in full)
