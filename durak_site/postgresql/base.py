"""Django's PostgreSQL backend, with the health check of a kept connection made at most once
a second rather than before every call, and dates and times read by psycopg's own loader.

Channels closes stale connections around every call a socket makes to the database, and
Django's health check then asks PostgreSQL `SELECT 1` before the call's own statements: at
a full room, one statement in three was that question. A connection that broke within the
second since its last check fails the call it serves; the next call finds it broken (an
error occurred on it), closes it and connects again.

Django reads every `timestamptz` through a loader of its own, written in Python, which
attaches its time zone to what psycopg's loader gives; where the connection's session is
in that time zone already (Django sets it so when it connects), psycopg's loader gives the
same value, in C where psycopg has its C implementation, some fifteen times faster: every
action of a game reads a handful of these (its deadline, when its players were last seen).
"""

from __future__ import annotations

import time
from datetime import tzinfo
from functools import cache
from typing import Any

import psycopg
from django.conf import settings
from django.db.backends.postgresql import base
from psycopg.abc import Loader
from psycopg.pq import Format
from psycopg.types.datetime import TimestamptzLoader

HEALTH_CHECK_SECONDS = 1.0
TIMESTAMPTZ_OID = 1184


class DatabaseWrapper(base.DatabaseWrapper):
    checked_at = float("-inf")
    """When this connection was last made or found usable (`time.monotonic`)."""

    def connect(self) -> Any:
        connected = super().connect()
        self.checked_at = time.monotonic()
        return connected

    def init_connection_state(self) -> None:
        super().init_connection_state()
        session = self.connection.info.timezone
        if settings.USE_TZ and session == self.timezone:
            self.connection.adapters.register_loader("timestamptz", session_loader(session))

    def close_if_health_check_failed(self) -> None:
        if time.monotonic() - self.checked_at < HEALTH_CHECK_SECONDS:
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
        if self.connection is not None:
            self.checked_at = time.monotonic()


@cache
def session_loader(zone: tzinfo) -> type[TimestamptzLoader]:
    """A `timestamptz` loader that reads in the session's time zone through psycopg's own
    loader, saying which zone that is as Django's does (Django's cursors keep it then)."""
    found = psycopg.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
    assert found is not None
    own: type[Loader] = found

    class SessionTzLoader(TimestamptzLoader):
        timezone = zone

        def __init__(self, oid: int, context: Any = None) -> None:
            super().__init__(oid, context)
            self.own = own(oid, context)

        def load(self, data: Any) -> Any:
            return self.own.load(data)

    return SessionTzLoader
