"""The PostgreSQL backend: a kept connection's health is checked at most once a second, and
one that broke is replaced at the next call."""

from __future__ import annotations

from datetime import UTC
from typing import Any

import pytest
from django.db import DatabaseError, close_old_connections, connection, connections
from django.db.backends.postgresql.psycopg_any import register_tzloader
from psycopg.pq import Format

from durak_site.postgresql import base

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def one_call() -> int:
    """What a socket's call to the database does: stale connections closed, then a query."""
    close_old_connections()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone()[0]


def test_the_site_runs_on_the_backend_that_checks_a_kept_connection_once_a_second():
    assert isinstance(connections["default"], base.DatabaseWrapper)


def test_a_kept_connection_is_asked_whether_it_works_at_most_once_a_second(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(base.time, "monotonic", lambda: clock[0])
    one_call()
    asked: list[int] = []
    real = base.DatabaseWrapper.is_usable

    def is_usable(self: base.DatabaseWrapper) -> bool:
        asked.append(1)
        return real(self)

    monkeypatch.setattr(base.DatabaseWrapper, "is_usable", is_usable)
    kept = connections["default"]
    assert isinstance(kept, base.DatabaseWrapper)
    kept.checked_at = clock[0]
    for _ in range(20):
        clock[0] += 0.04
        one_call()
    assert asked == []
    clock[0] += base.HEALTH_CHECK_SECONDS
    one_call()
    one_call()
    assert asked == [1]


def terminate(backend_pid: int) -> None:
    """What a restart of PostgreSQL does to a kept connection, from another one."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [backend_pid])
    finally:
        other.close()


def test_a_connection_that_broke_fails_one_call_and_the_next_connects_again():
    one_call()
    broken = connection.connection.info.backend_pid
    terminate(broken)
    with pytest.raises(DatabaseError):
        one_call()
    assert one_call() == 1
    assert connection.connection.info.backend_pid != broken


def test_a_statement_the_site_runs_five_times_is_prepared_and_planned_once():
    with connection.cursor() as cursor:
        for _ in range(6):
            cursor.execute("SELECT %s::int + 1", [41])
            assert cursor.fetchone()[0] == 42
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("$1" in statement for statement in prepared)


def test_dates_and_times_read_as_djangos_own_loader_reads_them():
    moments = ["2026-12-05 12:30:01.123456+00", "1999-12-31 23:59:59+03", "2024-02-29 00:00:00-11"]
    with connection.cursor() as cursor:
        assert connection.connection.adapters.get_loader(1184, Format.TEXT).__name__ == (
            "SessionTzLoader"
        )
        read = [fetched(cursor, moment) for moment in moments]
        register_tzloader(connection.timezone, cursor.cursor)
        assert [fetched(cursor, moment) for moment in moments] == read
    assert all(moment.tzinfo == UTC for moment in read)


def fetched(cursor: Any, moment: str) -> Any:
    cursor.execute("SELECT %s::timestamptz", [moment])
    return cursor.fetchone()[0]
