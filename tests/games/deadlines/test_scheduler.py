from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, connections
from django.db.models import F

from games import clock
from games.deadlines import scheduler
from games.engine import Game as EngineGame
from games.live import owners
from games.models import Game, Seat, Table
from games.table import game_rows, play, tables
from tests.support.databases import ON_BOTH_DATABASES
from tests.support.tables import Clock, deadline_of, games_of_bots, open_table, start_when_due
from tests.support.waiting import eventually

pytestmark = pytest.mark.usefixtures("ledger_audit", "in_memory_layer")


async def wait_for(condition: Any, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if await database_sync_to_async(condition)():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the scheduler did not act in time")


@database_sync_to_async
def game_at_a_two_player_table(anna: Any, boris: Any, frozen_clock: Clock) -> Game:
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    return start_when_due(table, frozen_clock)


@pytest.mark.django_db(transaction=True)
async def test_the_scheduler_fires_a_deadline_that_fell_due_while_it_was_down(
    anna, boris, frozen_clock
):
    game = await game_at_a_two_player_table(anna, boris, frozen_clock)
    frozen_clock.advance(31.0)
    runner = scheduler.Scheduler()
    task = asyncio.create_task(runner.run())
    try:
        await wait_for(lambda: Game.objects.get(pk=game.pk).version > game.version)
    finally:
        runner.stop()
        await asyncio.wait_for(task, 5)
    assert await database_sync_to_async(
        lambda: Game.objects.get(pk=game.pk).events.filter(data__auto=True).exists()
    )()


@pytest.mark.django_db(transaction=True)
async def test_the_scheduler_starts_a_game_three_seconds_after_the_table_fills(
    anna, boris, frozen_clock
):
    table = await database_sync_to_async(open_table)(anna, stake=0)
    runner = scheduler.Scheduler()
    task = asyncio.create_task(runner.run())
    try:
        await database_sync_to_async(tables.join)(table.pk, boris)
        await asyncio.sleep(0.3)
        assert not await database_sync_to_async(Game.objects.exists)()
        frozen_clock.advance(tables.START_DELAY)
        await wait_for(lambda: Table.objects.get(pk=table.pk).status == Table.Status.PLAYING)
    finally:
        runner.stop()
        await asyncio.wait_for(task, 5)


@pytest.mark.django_db(transaction=True)
async def test_nothing_fires_before_it_is_due(anna, boris, frozen_clock):
    game = await game_at_a_two_player_table(anna, boris, frozen_clock)
    runner = scheduler.Scheduler()
    task = asyncio.create_task(runner.run())
    await asyncio.sleep(0.6)
    runner.stop()
    await asyncio.wait_for(task, 5)
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).version == game.version


def race(due_games: list[int], now: float, schedulers: int = 2) -> list[int]:
    """Several schedulers tick the same due games at once; returns each game's fire count."""
    fired = dict.fromkeys(due_games, 0)
    lock = threading.Lock()
    barrier = threading.Barrier(schedulers)

    def sweep() -> None:
        barrier.wait()
        try:
            for game_id in due_games:
                if play.tick(game_id, now):
                    with lock:
                        fired[game_id] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(schedulers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [fired[game_id] for game_id in due_games]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_schedulers_racing_fire_each_deadline_once(frozen_clock):
    from accounts.services import create_player

    games = []
    for index in range(6):
        host = create_player(f"host{index}", "a-long-enough-password-42")
        guest = create_player(f"guest{index}", "a-long-enough-password-42")
        table = open_table(host, stake=10)
        tables.join(table.pk, guest)
        games.append(start_when_due(table, frozen_clock))
    now = frozen_clock.advance(31.0)
    counts = race([game.pk for game in games], now)
    assert counts == [1] * len(games)
    for game in games:
        game.refresh_from_db()
        assert game.events.filter(data__auto=True).count() == 1
        assert deadline_of(game) > now


def versions(games: list[Game]) -> list[int]:
    return list(
        Game.objects.filter(pk__in=[g.pk for g in games])
        .order_by("pk")
        .values_list("version", flat=True)
    )


@pytest.mark.django_db(transaction=True)
def test_a_game_whose_bots_are_slow_to_decide_holds_up_only_the_scheduler_firing_it(
    frozen_clock, monkeypatch
):
    slow, *others = games_of_bots(5, frozen_clock)
    now = frozen_clock.advance(3.1)
    Game.objects.filter(pk=slow.pk).update(deadline_at=clock.to_datetime(now - 60))
    before = versions(others)
    slow_version = Game.objects.get(pk=slow.pk).version
    deciding = threading.Event()
    slow_decisions: list[int] = []
    others_fired_meanwhile: list[bool] = []
    move = play.bot_move

    def slow_to_decide(loaded: play.Loaded, position: int, now: float, *, wait: bool) -> Any:
        if loaded.row.pk == slow.pk:
            slow_decisions.append(position)
            if not deciding.is_set():
                deciding.set()
                others_fired_meanwhile.append(
                    eventually(
                        lambda: all(a > b for a, b in zip(versions(others), before, strict=True))
                    )
                )
        return move(loaded, position, now, wait=wait)

    monkeypatch.setattr(play, "bot_move", slow_to_decide)
    first = threading.Thread(target=scheduler_pass)
    first.start()
    assert deciding.wait(10), "the first scheduler did not take the earliest game"
    second = threading.Thread(target=scheduler_pass)
    second.start()
    for thread in (first, second):
        thread.join(30)
    assert others_fired_meanwhile == [True]
    assert slow_decisions and len(slow_decisions) == len(set(slow_decisions))
    assert Game.objects.get(pk=slow.pk).version == slow_version + 1


def scheduler_pass() -> None:
    try:
        scheduler.fire_due_games(20.0)
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
async def test_wake_ups_with_nothing_due_do_not_make_the_scheduler_sweep_each_time(monkeypatch):
    sweeps = []

    async def count_sweep(upcoming: scheduler.Upcoming | None) -> tuple[int, None]:
        sweeps.append(time.monotonic())
        return 0, None

    monkeypatch.setattr(scheduler, "fire_due", count_sweep)
    runner = scheduler.Scheduler()
    task = asyncio.create_task(runner.run())
    await asyncio.sleep(0.2)
    began = time.monotonic()
    for _ in range(40):
        await database_sync_to_async(scheduler.wake_for)(clock.now())
        await asyncio.sleep(0.01)
    elapsed = time.monotonic() - began
    runner.stop()
    await asyncio.wait_for(task, 5)
    during = [at for at in sweeps if at >= began]
    assert len(during) <= 2 + elapsed / scheduler.SWEEP_SECONDS


@pytest.mark.django_db(transaction=True)
def test_a_scheduler_leaves_a_game_another_fired_last_to_it_until_the_handover(frozen_clock):
    theirs, unclaimed = games_of_bots(2, frozen_clock)
    now = frozen_clock.advance(3.1)
    Game.objects.filter(pk=theirs.pk).update(
        writer="elsewhere:1", deadline_at=clock.to_datetime(now)
    )
    Game.objects.filter(pk=unclaimed.pk).update(deadline_at=clock.to_datetime(now))
    before = versions([theirs, unclaimed])
    assert scheduler.read_upcoming().game == now
    scheduler.fire_due_games(1.0)
    assert versions([theirs, unclaimed]) == [before[0], before[1] + 1]
    assert Game.objects.get(pk=unclaimed.pk).writer == scheduler.WRITER
    Game.objects.filter(pk=unclaimed.pk).update(deadline_at=clock.to_datetime(now + 60))
    assert scheduler.read_upcoming().game == now + scheduler.HANDOVER_SECONDS
    frozen_clock.advance(scheduler.HANDOVER_SECONDS)
    scheduler.fire_due_games(1.0)
    assert versions([theirs, unclaimed]) == [before[0] + 1, before[1] + 1]
    assert Game.objects.get(pk=theirs.pk).writer == scheduler.WRITER


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "deadlines_busy",
    [
        False,
        pytest.param(True, marks=pytest.mark.postgres, id="while-its-deadlines-thread-is-busy"),
    ],
)
async def test_a_scheduler_that_takes_moves_carries_out_a_move_sent_to_it_and_answers(
    anna, boris, frozen_clock, deadlines_busy
):
    game = await game_at_a_two_player_table(anna, boris, frozen_clock)
    engine = EngineGame.from_dict(game.state)
    attacker = await database_sync_to_async(
        lambda: Seat.objects.get(table_id=game.table_id, position=engine.attacker).player
    )()
    card = min(engine.hands[engine.attacker], key=lambda c: (c.rank, c.suit))
    lead = json.dumps({"action": "lead", "card": str(card), "version": game.version})
    layer = get_channel_layer()
    reply_to = await layer.new_channel()
    group = owners.group_of(scheduler.WRITER)
    runner = scheduler.Scheduler(takes_moves=True)
    release = threading.Event()
    task = asyncio.create_task(runner.run())
    try:
        while not layer.groups.get(group):
            await asyncio.sleep(0.01)
        if deadlines_busy:
            # On PostgreSQL the deadlines have a thread of their own (SQLite's tests share one).
            busy = asyncio.get_running_loop().run_in_executor(scheduler._worker, release.wait, 10)
        await layer.group_send(
            group, owners.move_for(3, reply_to, attacker.pk, game.pk, lead, "en")
        )
        answer = await asyncio.wait_for(layer.receive(reply_to), 5)
    finally:
        release.set()
        if deadlines_busy:
            await busy
        runner.stop()
        await asyncio.wait_for(task, 5)
    assert answer == {"type": "owner.answer", "ticket": 3, "refusal": None}
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).version == game.version + 1
    assert not layer.groups.get(group)


@pytest.mark.django_db(transaction=True)
def test_a_sweep_reads_what_is_upcoming_after_it_on_the_same_call(frozen_clock):
    (game,) = games_of_bots(1, frozen_clock)
    now = frozen_clock.advance(3.1)
    Game.objects.filter(pk=game.pk).update(deadline_at=clock.to_datetime(now))
    version = Game.objects.get(pk=game.pk).version
    fired, upcoming = scheduler.sweep_and_look(None)
    assert fired == 1
    assert Game.objects.get(pk=game.pk).version == version + 1
    assert upcoming == scheduler.read_upcoming()
    assert upcoming is not None and upcoming.game is not None and upcoming.game > now


def counting(monkeypatch: Any, module: Any, name: str) -> list[Any]:
    """Each call of `module.name` from now on, by its result."""
    calls: list[Any] = []
    real = getattr(module, name)

    def counted(*args: Any) -> Any:
        calls.append(real(*args))
        return calls[-1]

    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.mark.django_db(transaction=True)
def test_a_sweep_that_fires_the_one_due_game_claims_no_other(frozen_clock, monkeypatch):
    due, later = games_of_bots(2, frozen_clock)
    now = frozen_clock.advance(3.1)
    Game.objects.filter(pk=due.pk).update(deadline_at=clock.to_datetime(now))
    Game.objects.filter(pk=later.pk).update(deadline_at=clock.to_datetime(now + 60))
    claims = counting(monkeypatch, game_rows, "claim_earliest")
    fired, upcoming = scheduler.sweep_and_look(scheduler.read_upcoming())
    assert fired == 1 and len(claims) == 1
    assert claims[0].claimed is not None and claims[0].claimed.game == due.pk
    assert upcoming == scheduler.read_upcoming()
    assert upcoming is not None and upcoming.game is not None and upcoming.game > now


@pytest.mark.django_db(transaction=True)
def test_a_sweep_told_that_nothing_is_due_claims_nothing_but_reads_what_is_upcoming(
    frozen_clock, monkeypatch
):
    (game,) = games_of_bots(1, frozen_clock)
    upcoming = scheduler.read_upcoming()
    assert upcoming is not None and upcoming.game is not None and upcoming.game > clock.now()
    later = upcoming.game + 60
    claims = counting(monkeypatch, game_rows, "claim_earliest")
    Game.objects.filter(pk=game.pk).update(deadline_at=clock.to_datetime(later))
    fired, after = scheduler.sweep_and_look(upcoming)
    assert fired == 0 and claims == []
    assert after is not None and after.game == later, "a deadline written without a wake-up"


@pytest.mark.django_db(transaction=True)
def test_a_sweep_whose_due_game_was_taken_first_reads_what_is_upcoming_again(
    frozen_clock, monkeypatch
):
    (game,) = games_of_bots(1, frozen_clock)
    now = frozen_clock.advance(3.1)
    Game.objects.filter(pk=game.pk).update(deadline_at=clock.to_datetime(now))
    upcoming = scheduler.read_upcoming()
    Game.objects.filter(pk=game.pk).update(
        deadline_at=clock.to_datetime(now + scheduler.CLAIM_SECONDS), writer="elsewhere:1"
    )
    fired, after = scheduler.sweep_and_look(upcoming)
    assert fired == 0 and after == scheduler.read_upcoming() and after != upcoming


@pytest.mark.django_db(transaction=True)
def test_a_sweep_whose_look_ahead_fails_still_tells_what_it_fired(frozen_clock, monkeypatch):
    (game,) = games_of_bots(1, frozen_clock)
    now = frozen_clock.advance(3.1)
    Game.objects.filter(pk=game.pk).update(deadline_at=clock.to_datetime(now))

    def unreadable() -> scheduler.Upcoming:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(scheduler, "read_upcoming", unreadable)
    assert scheduler.sweep_and_look(None) == (1, None)


async def test_the_rest_after_a_sweep_starts_from_what_the_sweep_read(monkeypatch):
    runner = scheduler.Scheduler()
    reads: list[float] = []

    async def upcoming() -> scheduler.Upcoming:
        reads.append(time.monotonic())
        return scheduler.Upcoming(None, None, None)

    monkeypatch.setattr(runner, "upcoming", upcoming)
    monkeypatch.setattr(scheduler, "SWEEP_SECONDS", 0.02)
    await runner.rest(None, 1, scheduler.Upcoming(None, None, None))
    assert reads == []
    await runner.rest(None, 1, None)
    assert len(reads) == 1, "a sweep that could not look ahead leaves it to the rest"


@ON_BOTH_DATABASES
@pytest.mark.django_db(transaction=True)
def test_a_sweep_reads_what_is_upcoming_once_whatever_it_fires(database, frozen_clock, monkeypatch):
    first, second, later = games_of_bots(3, frozen_clock)
    now = frozen_clock.advance(3.1)
    for game, at in ((first, now - 1), (second, now), (later, now + 60)):
        Game.objects.filter(pk=game.pk).update(deadline_at=clock.to_datetime(at))
    upcoming = scheduler.read_upcoming()
    reads = counting(monkeypatch, game_rows, "next_moments")
    fired, after = scheduler.sweep_and_look(upcoming)
    assert fired == 2 and len(reads) == 1, "once, at its end, not with each claim"
    assert after == scheduler.read_upcoming()
    assert after is not None and after.game is not None and now < after.game < now + 60


@pytest.mark.django_db(transaction=True)
def test_a_start_armed_while_a_sweep_fires_games_is_seen_when_it_ends(
    frozen_clock, django_user_model
):
    due, later = games_of_bots(2, frozen_clock)
    now = frozen_clock.advance(3.1)
    Game.objects.filter(pk=due.pk).update(deadline_at=clock.to_datetime(now))
    Game.objects.filter(pk=later.pk).update(deadline_at=clock.to_datetime(now + 60))
    upcoming = scheduler.read_upcoming()
    assert upcoming is not None and upcoming.start is None
    waiting = open_table(django_user_model.objects.create_user("late", password="pw"), stake=0)
    Table.objects.filter(pk=waiting.pk).update(starts_at=clock.to_datetime(now + 2))
    fired, after = scheduler.sweep_and_look(upcoming)
    assert fired == 1
    assert after is not None and after.start is not None
    assert after == scheduler.read_upcoming()


def sleeping_on(monkeypatch: Any, frozen_clock: Clock) -> list[float]:
    """Each wait of the scheduler's thread, which moves the test's clock on instead."""
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        frozen_clock.advance(seconds)

    monkeypatch.setattr(scheduler.time, "sleep", sleep)
    return slept


@pytest.mark.django_db(transaction=True)
def test_a_sweep_waits_on_its_thread_for_a_game_due_a_moment_after_the_one_it_fired(
    frozen_clock, monkeypatch
):
    first, second = games_of_bots(2, frozen_clock)
    now = frozen_clock.advance(3.1)
    soon = now + scheduler.STAY_SECONDS / 2
    Game.objects.filter(pk=first.pk).update(deadline_at=clock.to_datetime(now))
    Game.objects.filter(pk=second.pk).update(deadline_at=clock.to_datetime(soon))
    versions = {game.pk: Game.objects.get(pk=game.pk).version for game in (first, second)}
    slept = sleeping_on(monkeypatch, frozen_clock)
    fired, upcoming = scheduler.sweep_and_look(scheduler.read_upcoming())
    assert fired == 2
    assert slept == [pytest.approx(soon - now, abs=0.001)]
    assert {pk: Game.objects.get(pk=pk).version - v for pk, v in versions.items()} == {
        first.pk: 1,
        second.pk: 1,
    }
    assert upcoming == scheduler.read_upcoming()


@pytest.mark.django_db(transaction=True)
def test_a_sweep_leaves_a_game_due_later_than_a_moment_to_the_rest(frozen_clock, monkeypatch):
    first, second = games_of_bots(2, frozen_clock)
    now = frozen_clock.advance(3.1)
    Game.objects.filter(pk=first.pk).update(deadline_at=clock.to_datetime(now))
    later = now + scheduler.STAY_SECONDS * 2
    Game.objects.filter(pk=second.pk).update(deadline_at=clock.to_datetime(later))
    slept = sleeping_on(monkeypatch, frozen_clock)
    fired, upcoming = scheduler.sweep_and_look(scheduler.read_upcoming())
    assert fired == 1 and slept == []
    assert upcoming is not None and upcoming.game == pytest.approx(later, abs=0.001)


def test_a_sweep_does_not_wait_for_a_game_when_a_start_comes_first_or_the_clock_stands_still(
    monkeypatch,
):
    now = clock.now()
    lookout = scheduler.Lookout(None)
    lookout.saw(scheduler.Upcoming(now + 0.01, now + 0.005, None))
    assert lookout.soon(now) is None, "the start is the next thing upcoming"
    lookout.saw(scheduler.Upcoming(now + 0.01, None, None))
    assert lookout.soon(now) == pytest.approx(0.01)
    monkeypatch.setattr(scheduler.time, "sleep", lambda seconds: None)
    monkeypatch.setattr(scheduler.clock, "now", lambda: now)
    assert not scheduler.stayed_for_next(lookout, now, time.monotonic() + 1.0)


def other_connection_sees(game_id: int) -> tuple[Any, bool]:
    """The game's deadline column as another connection reads it, and whether that
    connection could lock its row."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT deadline_at FROM games_game WHERE id = %s", [game_id])
            deadline = cursor.fetchone()[0]
            other.set_autocommit(False)
            cursor.execute(
                "SELECT id FROM games_game WHERE id = %s FOR UPDATE SKIP LOCKED", [game_id]
            )
            free = cursor.fetchone() is not None
            other.rollback()
    finally:
        other.close()
    return deadline, free


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_game_fires_under_its_row_lock_with_its_deadline_left_as_it_was(
    frozen_clock, monkeypatch
):
    (game,) = games_of_bots(1, frozen_clock)
    now = frozen_clock.advance(3.1)
    due_at = clock.to_datetime(now)
    Game.objects.filter(pk=game.pk).update(deadline_at=due_at, writer=scheduler.WRITER)
    version = Game.objects.get(pk=game.pk).version
    real_tick = play.tick
    seen: list[tuple[Any, bool]] = []

    def watched(*args: Any, **kwargs: Any) -> bool:
        seen.append(other_connection_sees(game.pk))
        return real_tick(*args, **kwargs)

    monkeypatch.setattr(play, "tick", watched)
    fired, _upcoming = scheduler.sweep_and_look(None)
    assert fired == 1
    assert seen == [(due_at, False)], "locked while it fired, its deadline never moved"
    after = Game.objects.get(pk=game.pk)
    assert after.version == version + 1 and after.deadline_at != due_at
    assert other_connection_sees(game.pk) == (after.deadline_at, True)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_game_whose_firing_fails_falls_due_again_when_a_claim_would_end(
    frozen_clock, monkeypatch, caplog
):
    (game,) = games_of_bots(1, frozen_clock)
    now = frozen_clock.advance(3.1)
    Game.objects.filter(pk=game.pk).update(deadline_at=clock.to_datetime(now))
    version = Game.objects.get(pk=game.pk).version
    attempts: list[int] = []

    def broken(game_id: int, *args: Any, **kwargs: Any) -> bool:
        attempts.append(game_id)
        Game.objects.filter(pk=game_id).update(version=F("version") + 1)
        raise RuntimeError("a bug in the writer")

    monkeypatch.setattr(play, "tick", broken)
    fired, _upcoming = scheduler.sweep_and_look(None)
    assert fired == 0
    assert attempts == [game.pk], "tried once, not on every pass of the sweep"
    after = Game.objects.get(pk=game.pk)
    assert after.version == version, "what the failed firing wrote was rolled back"
    assert after.deadline_at == clock.to_datetime(now + scheduler.CLAIM_SECONDS)
    assert f"the game deadline of {game.pk} failed" in caplog.text
