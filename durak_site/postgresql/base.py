"""Django's PostgreSQL backend, with the health check of a kept connection made at most once
a second rather than before every call.

Channels closes stale connections around every call a socket makes to the database, and
Django's health check then asks PostgreSQL `SELECT 1` before the call's own statements: at
a full room, one statement in three was that question. A connection that broke within the
second since its last check fails the call it serves; the next call finds it broken (an
error occurred on it), closes it and connects again.
"""

from __future__ import annotations

import time
from typing import Any

from django.db.backends.postgresql import base

HEALTH_CHECK_SECONDS = 1.0


class DatabaseWrapper(base.DatabaseWrapper):
    checked_at = float("-inf")
    """When this connection was last made or found usable (`time.monotonic`)."""

    def connect(self) -> Any:
        connected = super().connect()
        self.checked_at = time.monotonic()
        return connected

    def close_if_health_check_failed(self) -> None:
        if time.monotonic() - self.checked_at < HEALTH_CHECK_SECONDS:
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
        if self.connection is not None:
            self.checked_at = time.monotonic()
