from __future__ import annotations

import asyncio
from typing import Any

import pytest

from accounts.services import create_player
from games import clock
from games.deadlines import admission, scheduler
from games.live import broadcast
from games.live.handshakes import HandshakeLine
from games.models import Game, Table
from games.picture.scene import Audience, of_table, render
from games.table import play, tables
from tests.support.tables import Clock, open_table


def full_tables(count: int, first: int = 0) -> list[Table]:
    """Tables of a person and a bot, each ready to start, filled one after the other; their
    hosts are numbered from `first`."""
    filled = []
    for index in range(first, first + count):
        host = create_player(f"player{index}", "a-long-enough-password-42")
        table = open_table(host, stake=0)
        tables.add_bot(table.pk, host)
        filled.append(table)
    return filled


@pytest.fixture(autouse=True)
def fresh_admissions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scheduler, "admissions", admission.Admissions())


def four_tables_ready_past_a_limit_of_two(settings: Any, frozen_clock: Clock) -> list[Table]:
    """Four tables whose start time has come, on a site that plays two games at once, after
    the scheduler's first look at them."""
    settings.RUNNING_GAMES_LIMIT = 2
    filled = full_tables(4)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    scheduler.sweep()
    return filled


def running_tables() -> set[int]:
    return set(Game.objects.filter(status=Game.Status.RUNNING).values_list("table_id", flat=True))


@pytest.mark.django_db
def test_past_the_sites_capacity_new_games_wait_in_order_and_are_told_when_to_expect_them(
    settings, frozen_clock
):
    first, second, third, fourth = four_tables_ready_past_a_limit_of_two(settings, frozen_clock)
    assert running_tables() == {first.pk, second.pk}
    third.refresh_from_db()
    fourth.refresh_from_db()
    assert third.busy_until is not None and fourth.busy_until is not None
    assert third.busy_until < fourth.busy_until, "the one that was ready first starts first"
    host = third.seat_set.get(position=0)
    seated = render(of_table(third.pk), Audience(host.position, "en"))
    assert "The site is busy: your game starts in about 60 seconds." in seated
    watching = render(of_table(fourth.pk), Audience(None, "ru"))
    assert "Сайт сейчас загружен" in watching and "120" in watching


@pytest.mark.django_db
def test_a_waiting_table_starts_when_a_running_game_ends_and_the_running_games_never_wait(
    settings, frozen_clock
):
    first, second, third, fourth = four_tables_ready_past_a_limit_of_two(settings, frozen_clock)
    running = Game.objects.get(table=first)
    versions = {g.pk: g.version for g in Game.objects.filter(status=Game.Status.RUNNING)}
    frozen_clock.advance(31.0)
    scheduler.sweep()
    assert running_tables() == {first.pk, second.pk}
    moved = Game.objects.filter(pk__in=versions)
    assert all(game.version > versions[game.pk] for game in moved), "running games went on"
    play.abort(running.pk, "test")
    frozen_clock.advance(admission.FULL_RECHECK_SECONDS)
    scheduler.sweep()
    assert running_tables() == {second.pk, third.pk}
    third.refresh_from_db()
    assert third.busy_until is None and third.status == Table.Status.PLAYING
    fourth.refresh_from_db()
    assert fourth.busy_until is not None


@pytest.mark.django_db
def test_a_waiting_table_is_told_again_when_the_time_it_was_told_has_passed(settings, frozen_clock):
    settings.RUNNING_GAMES_LIMIT = 1
    _first, second = full_tables(2)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    scheduler.sweep()
    second.refresh_from_db()
    told = second.busy_until
    assert told is not None
    frozen_clock.advance(1.0)
    scheduler.sweep()
    second.refresh_from_db()
    assert second.busy_until == told
    frozen_clock.advance_to(clock.to_seconds(told) + 0.1)
    scheduler.sweep()
    second.refresh_from_db()
    assert second.busy_until is not None and second.busy_until > told


async def test_seated_players_handshakes_go_before_the_spectators_waiting_in_line():
    line = HandshakeLine(at_once=1)
    served: list[str] = []

    async def handshake(name: str, seated: bool) -> None:
        async with line.turn(seated=seated):
            served.append(name)
            await asyncio.sleep(0.01)

    first = asyncio.create_task(handshake("spectator 1", False))
    await asyncio.sleep(0)
    waiting = [
        asyncio.create_task(handshake("spectator 2", False)),
        asyncio.create_task(handshake("spectator 3", False)),
        asyncio.create_task(handshake("anna", True)),
        asyncio.create_task(handshake("boris", True)),
    ]
    await asyncio.gather(first, *waiting)
    assert served == ["spectator 1", "anna", "boris", "spectator 2", "spectator 3"]
    assert line.free == 1


async def test_a_handshake_that_gives_up_in_line_does_not_keep_its_place():
    line = HandshakeLine(at_once=1)
    async with line.turn(seated=False):
        gone = asyncio.create_task(line.turn(seated=True).__aenter__())
        await asyncio.sleep(0)
        gone.cancel()
        with pytest.raises(asyncio.CancelledError):
            await gone
    assert line.free == 1 and not line.seated


@pytest.mark.django_db
def test_while_the_site_is_full_the_line_is_looked_at_again_only_every_second(
    settings, frozen_clock, django_assert_num_queries
):
    settings.RUNNING_GAMES_LIMIT = 1
    first, _second = full_tables(2)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    admissions = admission.Admissions()
    due = lambda: scheduler.due_tables(clock.now())  # noqa: E731
    assert [table.table for table in admissions.admit(due, clock.now())[0]] == [first.pk]
    play.start(first.pk)
    frozen_clock.advance(admission.FULL_RECHECK_SECONDS - 0.1)
    with django_assert_num_queries(0):
        assert admissions.admit(due, clock.now()) == ([], [])
    frozen_clock.advance(admission.FULL_RECHECK_SECONDS)
    assert admissions.admit(due, clock.now())[0] == []


@pytest.mark.django_db
def test_a_table_waiting_in_line_falls_due_for_the_scheduler_only_at_its_next_look(
    settings, frozen_clock
):
    four_tables_ready_past_a_limit_of_two(settings, frozen_clock)
    now = clock.now()
    waiting_since = scheduler.due_tables(now)[0].at
    upcoming = scheduler.read_upcoming()
    assert waiting_since < now
    assert upcoming.start == scheduler.admissions.next_look == now + admission.FULL_RECHECK_SECONDS
    assert not upcoming.due(upcoming.start, now)
    frozen_clock.advance(admission.FULL_RECHECK_SECONDS)
    assert scheduler.read_upcoming().due(upcoming.start, clock.now())


@pytest.mark.django_db
def test_a_long_line_is_told_its_expected_starts_a_few_tables_at_a_time(settings, frozen_clock):
    settings.RUNNING_GAMES_LIMIT = 1
    full_tables(admission.TELL_AT_ONCE + 3)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    due = scheduler.due_tables(clock.now())
    _admitted, told, waiting = admission.admit(due, clock.now(), admission.Room(1, 1, 1))
    assert waiting and told == [table.table for table in due[1 : 1 + admission.TELL_AT_ONCE]]
    again = scheduler.due_tables(clock.now())
    _admitted, told, _waiting = admission.admit(again, clock.now(), admission.Room(1, 1, 1))
    assert told == [table.table for table in due[1 + admission.TELL_AT_ONCE :]]


@pytest.mark.django_db
def test_a_room_that_fills_at_once_starts_a_few_games_at_a_look_and_tells_nobody_to_wait(
    settings, frozen_clock
):
    settings.RUNNING_GAMES_LIMIT = 10
    filled = full_tables(admission.STARTS_AT_ONCE + 2)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    scheduler.sweep()
    assert running_tables() == {table.pk for table in filled[: admission.STARTS_AT_ONCE]}
    assert not Table.objects.filter(busy_until__isnull=False).exists()
    frozen_clock.advance(admission.NEXT_LOOK_SECONDS)
    scheduler.sweep()
    assert running_tables() == {table.pk for table in filled}


def running_late(pace: admission.Pace, now: float, seconds: float, games: int) -> None:
    for index in range(games):
        pace.took_up(now - seconds, now - index * 0.01)


@pytest.mark.django_db
def test_while_the_scheduler_takes_up_its_games_late_no_game_starts_and_nobody_is_told_to_wait(
    settings, frozen_clock
):
    """A fault's stall (Redis or a server starting again) holds the starts for a moment; the
    tables have their slots, so they are not told the site is busy."""
    settings.RUNNING_GAMES_LIMIT = 10
    first, second = full_tables(2)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    running_late(scheduler.admissions.pace, clock.now(), 0.5, admission.PACE_SAMPLES)
    scheduler.sweep()
    assert running_tables() == set()
    assert not Table.objects.filter(busy_until__isnull=False).exists()
    frozen_clock.advance(admission.PACE_SECONDS + 0.01)
    scheduler.sweep()
    assert running_tables() == {first.pk, second.pk}, "the limit stays what it was"


@pytest.mark.django_db
def test_games_late_for_seconds_cut_the_limit_and_the_line_is_told(settings, frozen_clock):
    settings.RUNNING_GAMES_LIMIT = 10
    first, second = full_tables(2)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    late_for(scheduler.admissions.pace, admission.LATE_FOR_SECONDS, frozen_clock)
    assert running_tables() == set()
    assert scheduler.admissions.capacity.limit() == 1, "it ran late playing none: one"
    second.refresh_from_db()
    seated = render(of_table(second.pk), Audience(0, "en"))
    assert second.busy_until is not None and "The site is busy" in seated
    frozen_clock.advance(admission.PACE_SECONDS + 0.01)
    scheduler.sweep()
    assert running_tables() == {first.pk}, "one at a time"
    frozen_clock.advance(admission.CAPACITY_GROWS_SECONDS)
    scheduler.sweep()
    assert running_tables() == {first.pk, second.pk}


def late_for(pace: admission.Pace, seconds: float, frozen_clock: Clock) -> None:
    """A scheduler that sweeps every half second for `seconds`, its games taken up late."""
    for look in range(int(seconds / 0.5) + 1):
        frozen_clock.advance(0.5 if look else 0.0)
        running_late(pace, clock.now(), 0.5, admission.PACE_SAMPLES)
        scheduler.sweep()


def test_the_pace_keeps_up_while_nine_in_ten_of_the_latest_games_were_taken_up_on_time():
    pace = admission.Pace()
    running_late(pace, 100.0, 0.0, 9)
    running_late(pace, 100.0, 0.5, 1)
    assert pace.keeping_up(100.0)
    running_late(pace, 100.0, 0.5, 1)
    assert not pace.keeping_up(100.0)
    assert pace.keeping_up(100.0 + admission.PACE_SECONDS + 0.1), "the late ones are forgotten"


def test_the_pace_holds_the_starts_once_nine_in_ten_games_were_taken_up_later_than_its_bound():
    within, past = admission.Pace(), admission.Pace()
    for _game in range(admission.PACE_SAMPLES):
        within.took_up(100.0 - admission.PACE_LATE_SECONDS + 0.01, 100.0)
        past.took_up(100.0 - admission.PACE_LATE_SECONDS - 0.01, 100.0)
    assert within.keeping_up(100.0)
    assert not past.keeping_up(100.0)


def test_a_few_late_games_say_nothing_of_the_load():
    pace = admission.Pace()
    running_late(pace, 100.0, 30.0, admission.PACE_SAMPLES - 1)
    assert pace.keeping_up(100.0)


@pytest.mark.django_db
def test_the_scheduler_fires_the_games_that_fell_due_before_each_start_and_each_table_it_tells(
    settings, frozen_clock, monkeypatch
):
    settings.RUNNING_GAMES_LIMIT = 2
    full_tables(4)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    steps: list[str] = []

    def recording(step: str, original: Any) -> Any:
        def record(*args: Any) -> Any:
            steps.append(step)
            return original(*args)

        return record

    monkeypatch.setattr(scheduler, "fire_due_games", recording("games", scheduler.fire_due_games))
    monkeypatch.setattr(
        scheduler, "start_unless_taken", recording("start", scheduler.start_unless_taken)
    )
    monkeypatch.setattr(broadcast, "line_told", recording("tell", broadcast.line_told))
    scheduler.sweep()
    assert steps == ["games", "games", "start", "games", "start", "games", "tell", "games", "tell"]
    assert len(running_tables()) == 2


@pytest.mark.django_db
def test_the_length_of_the_latest_games_is_read_again_only_every_half_minute(
    settings, frozen_clock, monkeypatch
):
    read: list[float] = []
    lengths = iter([90.0, 30.0])

    def latest_length() -> float:
        read.append(clock.now())
        return next(lengths)

    monkeypatch.setattr(admission, "game_length", latest_length)
    admissions = admission.Admissions()
    start = clock.now()
    assert admissions.game_length(start) == 90.0
    assert admissions.game_length(start + admission.GAME_LENGTH_SECONDS_KEPT - 0.1) == 90.0
    assert admissions.game_length(start + admission.GAME_LENGTH_SECONDS_KEPT) == 30.0
    assert len(read) == 2


def games_running(count: int, settings: Any, frozen_clock: Clock) -> None:
    """`count` games started, on a site that lets itself play 10."""
    settings.RUNNING_GAMES_LIMIT = 10
    full_tables(count)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    scheduler.sweep()
    assert len(running_tables()) == count


def late_by(pace: admission.Pace, now: float, seconds: float) -> None:
    """The pace of a scheduler that took up its latest games `seconds` after their deadlines."""
    for index in range(admission.PACE_SAMPLES):
        taken_up = now - index * 0.01
        pace.took_up(taken_up - seconds, taken_up)


@pytest.mark.django_db
def test_once_its_games_ran_late_for_seconds_the_site_lets_itself_play_one_fewer_than_it_plays(
    settings, frozen_clock
):
    games_running(4, settings, frozen_clock)
    pace, capacity = admission.Pace(), admission.Capacity()
    late_by(pace, clock.now(), admission.PACE_LATE_SECONDS + 0.1)
    assert capacity.room(pace, clock.now()) == (6, 0, 10), "a stall: no start, the same limit"
    frozen_clock.advance(admission.LATE_FOR_SECONDS)
    late_by(pace, clock.now(), admission.PACE_LATE_SECONDS + 0.1)
    assert capacity.room(pace, clock.now()) == (0, 0, 3)
    play.abort(Game.objects.filter(status=Game.Status.RUNNING)[0].pk, "test")
    assert capacity.room(pace, clock.now()) == (0, 0, 2), "it follows the games down while late"


@pytest.mark.django_db
def test_games_on_time_again_within_seconds_leave_the_limit_as_it_was(settings, frozen_clock):
    games_running(4, settings, frozen_clock)
    pace, capacity = admission.Pace(), admission.Capacity()
    late_by(pace, clock.now(), admission.PACE_LATE_SECONDS + 0.1)
    capacity.room(pace, clock.now())
    frozen_clock.advance(admission.PACE_SECONDS + 0.01)
    late_by(pace, clock.now(), 0.0)
    capacity.room(pace, clock.now())
    frozen_clock.advance(admission.LATE_FOR_SECONDS)
    late_by(pace, clock.now(), admission.PACE_LATE_SECONDS + 0.1)
    assert capacity.room(pace, clock.now()) == (6, 0, 10), "late again, but only since now"


@pytest.mark.django_db
def test_near_what_the_machine_can_do_no_game_starts_and_the_limit_stays(settings, frozen_clock):
    """Nobody in line is told to wait: their slots are free, their starts put off."""
    settings.RUNNING_GAMES_LIMIT = 10
    pace, capacity = admission.Pace(), admission.Capacity()
    late_by(pace, clock.now(), (admission.PACE_EASY_SECONDS + admission.PACE_LATE_SECONDS) / 2)
    assert capacity.room(pace, clock.now()) == (10, 0, 10)
    frozen_clock.advance(admission.PACE_SECONDS + 0.01)
    room = capacity.room(pace, clock.now())
    assert room == (10, admission.STARTS_AT_ONCE, 10), "the pace forgot them"


@pytest.mark.django_db
def test_while_its_games_are_well_on_time_the_site_lets_itself_one_more_every_two_seconds(
    settings, frozen_clock
):
    games_running(3, settings, frozen_clock)
    settings.RUNNING_GAMES_LIMIT = 5
    pace, capacity = admission.Pace(), admission.Capacity()
    for wait in (admission.LATE_FOR_SECONDS, 0.0):
        late_by(pace, clock.now(), admission.PACE_LATE_SECONDS + 0.1)
        capacity.room(pace, clock.now())
        frozen_clock.advance(wait)
    assert capacity.limit() == 2
    pace = admission.Pace()
    late_by(pace, clock.now(), 0.0)
    assert capacity.room(pace, clock.now()) == (0, admission.STARTS_AT_ONCE, 2)
    frozen_clock.advance(admission.CAPACITY_GROWS_SECONDS - 0.1)
    assert capacity.room(pace, clock.now()).limit == 2
    frozen_clock.advance(0.1)
    assert capacity.room(pace, clock.now()).limit == 3
    frozen_clock.advance(admission.CAPACITY_GROWS_SECONDS)
    assert capacity.room(pace, clock.now())[::2] == (1, 4)
    frozen_clock.advance(admission.CAPACITY_GROWS_SECONDS)
    assert capacity.room(pace, clock.now()).limit == 4, "it grows only while it is full"
    assert capacity.learnt == 4


@pytest.mark.django_db
def test_a_site_that_ran_late_tells_the_line_a_wait_by_the_games_it_now_plays(
    settings, frozen_clock
):
    settings.RUNNING_GAMES_LIMIT = 10
    first, second, third = full_tables(3)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    scheduler.sweep()
    assert running_tables() == {first.pk, second.pk, third.pk}
    waiting = full_tables(4, first=3)[-1]
    frozen_clock.advance(tables.START_DELAY + 0.01)
    late_for(scheduler.admissions.pace, admission.LATE_FOR_SECONDS, frozen_clock)
    assert len(running_tables()) == 3
    waiting.refresh_from_db()
    assert waiting.busy_until is not None
    told = clock.to_seconds(waiting.busy_until) - clock.now()
    length = admission.GAME_LENGTH_SECONDS
    assert told == admission.expected_wait(3, length, 2) > admission.expected_wait(3, length, 10)


def test_the_later_its_games_are_taken_up_the_fewer_games_start_at_a_look():
    def at_once(seconds: float) -> int:
        pace = admission.Pace()
        late_by(pace, 100.0, seconds)
        return pace.starts_at_once(100.0)

    assert at_once(admission.PACE_IDLE_SECONDS - 0.005) == admission.STARTS_AT_ONCE
    assert at_once(admission.PACE_IDLE_SECONDS + 0.005) == 1
    assert at_once(admission.PACE_EASY_SECONDS + 0.005) == 0


@pytest.mark.django_db
def test_a_room_filling_while_the_games_are_taken_up_a_little_late_starts_one_game_a_look(
    settings, frozen_clock
):
    settings.RUNNING_GAMES_LIMIT = 10
    filled = full_tables(3)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    late_by(scheduler.admissions.pace, clock.now(), admission.PACE_IDLE_SECONDS + 0.01)
    scheduler.sweep()
    assert running_tables() == {filled[0].pk}
    assert not Table.objects.filter(busy_until__isnull=False).exists(), "nobody is told to wait"
    frozen_clock.advance(admission.NEXT_LOOK_SECONDS)
    scheduler.sweep()
    assert running_tables() == {filled[0].pk, filled[1].pk}
