"""The server's clock: engine time is seconds since the epoch, as a float."""

from __future__ import annotations

import time
from datetime import UTC, datetime


def now() -> float:
    return time.time()


def to_datetime(moment: float) -> datetime:
    return datetime.fromtimestamp(moment, tz=UTC)


def to_seconds(moment: datetime) -> float:
    return moment.timestamp()
