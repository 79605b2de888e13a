"""The writers' own statements read and write what the ORM would."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import clock
from games.models import Game, GameEvent, Seat, Table
from games.table import game_rows, tables
from tests.support.databases import ON_BOTH_DATABASES
from tests.support.orm import every_value
from tests.support.tables import Clock, deadline_of, open_table, start_when_due


@pytest.mark.django_db
@ON_BOTH_DATABASES
def test_a_game_and_its_seats_are_read_as_the_orm_reads_them(database, anna, boris, frozen_clock):
    table = open_table(anna, stake=10, seats=3)
    tables.join(table.pk, boris)
    tables.add_bot(table.pk, anna, "strong")
    game = start_when_due(table, frozen_clock)
    Seat.objects.filter(table=table, player=boris).update(away=True)
    found = game_rows.game_and_seats(game.pk)
    assert found is not None
    row, seats = found
    orm = Game.objects.select_related("table").get(pk=game.pk)
    assert every_value(row) == every_value(orm)
    assert every_value(row.table) == every_value(orm.table)
    ordered = orm.table.seats_in_order()
    assert [every_value(seat) for seat in seats] == [every_value(seat) for seat in ordered]
    assert [seat.player and model_to_dict(seat.player) for seat in seats] == [
        seat.player and model_to_dict(seat.player) for seat in ordered
    ]
    assert [seat.is_bot for seat in seats] == [False, False, True]
    assert all(seat.table is row.table for seat in seats)


@pytest.mark.django_db
def test_no_game_is_read_where_there_is_none():
    assert game_rows.game_and_seats(10**9) is None


@pytest.mark.django_db
@ON_BOTH_DATABASES
def test_the_earliest_moments_are_of_running_games_and_open_tables_only(
    database, anna, boris, clara, frozen_clock
):
    playing = open_table(anna, stake=0)
    tables.add_bot(playing.pk, anna)
    game = start_when_due(playing, frozen_clock)
    soon, later = clock.now() + 5, clock.now() + 9
    waiting = open_table(boris, stake=0)
    Table.objects.filter(pk=waiting.pk).update(starts_at=clock.to_datetime(later))
    Table.objects.filter(pk=playing.pk).update(starts_at=clock.to_datetime(soon))
    Seat.objects.filter(table=playing).update(release_at=clock.to_datetime(soon))
    assert game_rows.next_moments()[2:] == (clock.to_datetime(later), None)
    seat = tables.join(waiting.pk, clara)
    Seat.objects.filter(pk=seat.pk).update(release_at=clock.to_datetime(later + 1))
    game.refresh_from_db()
    assert game_rows.next_moments("me") == (
        game.deadline_at,
        game.deadline_at,
        clock.to_datetime(later),
        clock.to_datetime(later + 1),
    )


@pytest.mark.django_db
@ON_BOTH_DATABASES
def test_a_schedulers_earliest_game_is_of_its_own_or_unclaimed_games(
    database, anna, boris, frozen_clock
):
    first, second = fired_last_by(["other", "me"], [anna, boris], frozen_clock)
    moments = game_rows.next_moments("me")
    assert (moments.own_game, moments.game) == (second.deadline_at, first.deadline_at)
    assert game_rows.next_moments("third").own_game is None


@pytest.mark.django_db
def test_on_sqlite_each_earliest_moment_walks_the_index_of_its_own_column():
    if connection.vendor != "sqlite":
        pytest.skip("the plan asked for is SQLite's")
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN QUERY PLAN " + game_rows.next_moments_sql(connection.vendor),
            ["running", "me", "running", "open", "open"],
        )
        plan = " ".join(str(row[-1]) for row in cursor.fetchall())
    assert "deadline_at" in plan and "starts_at" in plan and "release_at" in plan
    assert "TEMP B-TREE" not in plan


def running_games(players: list[User], frozen_clock: Clock) -> list[Game]:
    """A game of each player and a bot, their deadlines a second apart, the first earliest."""
    games = []
    for player in players:
        table = open_table(player, stake=0)
        tables.add_bot(table.pk, player)
        games.append(start_when_due(table, frozen_clock))
    for offset, game in enumerate(games):
        deadline = clock.to_datetime(clock.now() - 10 + offset)
        Game.objects.filter(pk=game.pk).update(deadline_at=deadline)
        game.refresh_from_db()
    return games


def claim_now(writer: str, overdue: datetime) -> tuple[int, datetime] | None:
    """What `writer` claims now, for 5 s, taking another's games due since `overdue`."""
    now = clock.now()
    return claimed(
        game_rows.claim_earliest(
            clock.to_datetime(now), clock.to_datetime(now + 5), writer, overdue
        )
    )


def claimed(claiming: game_rows.Claiming) -> tuple[int, datetime] | None:
    """The claimed game and the deadline it was due at."""
    claim = claiming.claimed
    return None if claim is None else (claim.game, claim.deadline)


def fired_last_by(writers: list[str], players: list[User], frozen_clock: Clock) -> list[Game]:
    """`running_games`, each named as fired last by its scheduler ("" for none yet)."""
    games = running_games(players, frozen_clock)
    for game, writer in zip(games, writers, strict=True):
        Game.objects.filter(pk=game.pk).update(writer=writer)
    return games


@pytest.mark.django_db
@ON_BOTH_DATABASES
def test_the_earliest_due_game_is_claimed_and_its_deadline_moved(
    database, anna, boris, frozen_clock
):
    first, second = running_games([anna, boris], frozen_clock)
    until = clock.to_datetime(clock.now() + 5)
    assert claimed(game_rows.claim_earliest(clock.to_datetime(clock.now()), until)) == (
        first.pk,
        first.deadline_at,
    )
    assert Game.objects.get(pk=first.pk).deadline_at == until
    assert claimed(game_rows.claim_earliest(clock.to_datetime(clock.now()), until)) == (
        second.pk,
        second.deadline_at,
    )
    assert claimed(game_rows.claim_earliest(clock.to_datetime(clock.now()), until)) is None


@pytest.mark.django_db
@ON_BOTH_DATABASES
def test_a_claim_reads_the_claimed_games_fingerprint_as_it_stands(
    database, anna, boris, frozen_clock
):
    first, _second = running_games([anna, boris], frozen_clock)
    Seat.objects.filter(table=first.table_id, player=anna).update(away=True)
    until = clock.to_datetime(clock.now() + 5)
    claim = game_rows.claim_earliest(clock.to_datetime(clock.now()), until).claimed
    assert claim is not None and claim.found is not None
    stored = game_rows.fingerprint(first.pk, lock=False)
    assert stored is not None
    assert claim.found[0] == stored[0]
    assert len(stored[0][1]) == 2, "both seats, each with its player"
    read_before_the_claim_moved_it = connection.features.has_select_for_update_skip_locked
    assert claim.found[1] == (first.deadline_at if read_before_the_claim_moved_it else until)


@pytest.mark.django_db
@ON_BOTH_DATABASES
def test_a_scheduler_takes_another_ones_game_only_once_it_is_overdue(
    database, anna, boris, frozen_clock
):
    earlier, later = fired_last_by(["other", ""], [anna, boris], frozen_clock)
    too_soon = clock.to_datetime(deadline_of(earlier) - 1)
    assert claim_now("me", too_soon) == (later.pk, later.deadline_at)
    assert Game.objects.get(pk=later.pk).writer == "me", "an unclaimed game becomes its own"
    assert claim_now("me", too_soon) is None
    assert claim_now("me", clock.to_datetime(deadline_of(earlier))) == (
        earlier.pk,
        earlier.deadline_at,
    )
    assert Game.objects.get(pk=earlier.pk).writer == "me"


@pytest.mark.django_db
@ON_BOTH_DATABASES
def test_a_scheduler_takes_its_own_due_game_before_it_is_overdue(
    database, anna, boris, frozen_clock
):
    earlier, later = fired_last_by(["me", "me"], [anna, boris], frozen_clock)
    overdue = clock.to_datetime(deadline_of(earlier) - 1)
    assert claim_now("me", overdue) == (earlier.pk, earlier.deadline_at)
    assert claim_now("other", overdue) is None
    assert claim_now("me", overdue) == (later.pk, later.deadline_at)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_claim_whose_snapshot_missed_a_version_reads_the_fingerprint_again(
    anna, boris, frozen_clock, monkeypatch
):
    first, _second = running_games([anna, boris], frozen_clock)
    read = game_rows.read_fingerprint
    calls = []

    def first_a_version_behind(rows):
        found = read(rows)
        calls.append(found)
        if len(calls) > 1 or found is None:
            return found
        (own, seats), deadline = found
        return ((own[0] - 1, *own[1:]), seats), deadline

    monkeypatch.setattr(game_rows, "read_fingerprint", first_a_version_behind)
    until = clock.to_datetime(clock.now() + 5)
    claim = game_rows.claim_earliest(clock.to_datetime(clock.now()), until).claimed
    assert claim is not None and claim.found is not None
    assert claim.found[0][0][0] == first.version
    assert claim.found[1] == until, "read after the claim, which moved the deadline"
    assert len(calls) == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_due_game_another_writer_holds_is_passed_over(anna, boris, frozen_clock):
    held, free = running_games([anna, boris], frozen_clock)
    writer = connections.create_connection("default")
    try:
        writer.set_autocommit(False)
        with writer.cursor() as cursor:
            cursor.execute(game_rows.at_version_sql("postgresql"), [held.pk, held.version])
        until = clock.to_datetime(clock.now() + 5)
        now = clock.to_datetime(clock.now())
        assert claimed(game_rows.claim_earliest(now, until)) == (free.pk, free.deadline_at)
        assert claimed(game_rows.claim_earliest(now, until)) is None, "the held one waits"
        writer.rollback()
        assert claimed(game_rows.claim_earliest(now, until)) == (held.pk, held.deadline_at)
    finally:
        writer.close()


@pytest.mark.django_db
@ON_BOTH_DATABASES
def test_a_version_is_saved_only_over_the_version_it_was_read_at(database, anna, frozen_clock):
    table = open_table(anna, stake=0)
    tables.add_bot(table.pk, anna)
    game = start_when_due(table, frozen_clock)
    read_at = game.version
    game.version, game.event_seq = read_at + 1, game.event_seq + 1
    assert game_rows.save_version(game, read_at) is True
    game.version += 1
    assert game_rows.save_version(game, read_at) is False, "another version was saved since"
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.event_seq) == (read_at + 1, game.event_seq)


@ON_BOTH_DATABASES
@pytest.mark.django_db(transaction=True)
def test_a_claim_reads_the_deadline_of_the_game_it_may_take_after_the_one_it_took(
    database, anna, boris, frozen_clock
):
    first, second = fired_last_by(["me", "me"], [anna, boris], frozen_clock)
    now, until = clock.to_datetime(clock.now()), clock.to_datetime(clock.now() + 5)
    claiming = game_rows.claim_earliest(now, until, "me")
    assert claimed(claiming) == (first.pk, first.deadline_at)
    assert claiming.following == second.deadline_at

    claiming = game_rows.claim_earliest(now, until, "me")
    assert claimed(claiming) == (second.pk, second.deadline_at)
    assert claiming.following == until, "the first's claim"

    claiming = game_rows.claim_earliest(now, until, "me")
    assert claimed(claiming) is None
    assert claiming.following == until


@ON_BOTH_DATABASES
@pytest.mark.django_db(transaction=True)
def test_the_game_after_a_claim_is_another_writers_only_once_that_writer_is_overdue(
    database, anna, boris, frozen_clock
):
    first, second = fired_last_by(["me", "elsewhere"], [anna, boris], frozen_clock)
    now, until = clock.now(), clock.to_datetime(clock.now() + 5)
    assert second.deadline_at is not None
    held = clock.to_seconds(second.deadline_at)
    claiming = game_rows.claim_earliest(
        clock.to_datetime(now), until, "me", clock.to_datetime(held - 1)
    )
    assert claimed(claiming) == (first.pk, first.deadline_at)
    assert claiming.following is None, "the other writer's game is not overdue"

    Game.objects.filter(pk=first.pk).update(deadline_at=first.deadline_at)
    claiming = game_rows.claim_earliest(clock.to_datetime(now), until, "me", second.deadline_at)
    assert claimed(claiming) == (first.pk, first.deadline_at)
    assert claiming.following == second.deadline_at


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_version_and_its_events_are_written_in_one_statement_or_not_at_all(
    anna, frozen_clock
):
    table = open_table(anna, stake=0)
    tables.add_bot(table.pk, anna)
    game = start_when_due(table, frozen_clock)
    read_at, seq = game.version, game.event_seq
    events: list[dict[str, Any]] = [
        {"type": "pass", "seat": 1, "at": 1.5},
        {"type": "note", "seat": None, "at": 2.0},
    ]
    game.version, game.event_seq = read_at + 1, seq + 2
    assert game_rows.versions_at_once()
    with CaptureQueriesContext(connection) as captured:
        assert game_rows.save_version(game, read_at, events) is True
    assert len(captured.captured_queries) == 1
    stored = list(GameEvent.objects.filter(game=game, seq__gt=seq).order_by("seq"))
    assert [(e.seq, e.version, e.type, e.seat, e.data) for e in stored] == [
        (seq + 1, read_at + 1, "pass", 1, events[0]),
        (seq + 2, read_at + 1, "note", None, events[1]),
    ]
    game.version, game.event_seq = read_at + 2, seq + 4
    assert game_rows.save_version(game, read_at, events) is False
    assert GameEvent.objects.filter(game=game, seq__gt=seq + 2).count() == 0
    assert Game.objects.get(pk=game.pk).version == read_at + 1


def row_version_id(game_id: int) -> str:
    """The id of the transaction that wrote the game's row as it stands (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT xmin::text FROM games_game WHERE id = %s", [game_id])
        return str(cursor.fetchone()[0])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_lock_claims_the_earliest_due_game_for_its_transaction_alone(
    anna, boris, frozen_clock
):
    first, second = fired_last_by(["me", "me"], [anna, boris], frozen_clock)
    now = clock.to_datetime(clock.now())
    overdue = clock.to_datetime(clock.now() - 1)
    with transaction.atomic():
        written = row_version_id(first.pk)
        locked = game_rows.lock_earliest(now, "me", overdue)
        assert claimed(locked) == (first.pk, first.deadline_at)
        assert locked.following == second.deadline_at
        stored = game_rows.fingerprint(first.pk, lock=False)
        assert locked.claimed is not None and locked.claimed.found is not None
        assert stored is not None and locked.claimed.found[0] == stored[0]
        assert row_version_id(first.pk) == written, "its own game's row is not written"
        assert Game.objects.get(pk=first.pk).deadline_at == first.deadline_at
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                cursor.execute(
                    game_rows.claim_unheld_sql("postgresql"),
                    [
                        Game.Status.RUNNING.value,
                        *(now, "me", overdue),
                        *(clock.to_datetime(clock.now() + 5), "me"),
                        *(Game.Status.RUNNING.value, "me", overdue),
                    ],
                )
                taken = cursor.fetchall()[0][1]
        finally:
            other.close()
        assert taken == second.pk, "another writer passes over the locked game"
    with transaction.atomic():
        assert claimed(game_rows.lock_earliest(now, "me", overdue)) == (
            first.pk,
            first.deadline_at,
        ), "free again once the transaction ended"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_lock_names_the_writer_of_a_game_that_was_anothers(anna, frozen_clock):
    (game,) = fired_last_by(["other"], [anna], frozen_clock)
    with transaction.atomic():
        now = clock.to_datetime(clock.now())
        locked = game_rows.lock_earliest(now, "me", now)
        assert claimed(locked) == (game.pk, game.deadline_at)
        assert Game.objects.get(pk=game.pk).writer == "me"
        assert Game.objects.get(pk=game.pk).deadline_at == game.deadline_at
