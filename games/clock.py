"""The server's clock: engine time is seconds since the epoch, as a float.

``simulated()`` replaces it, for one process, by a clock that moves only when told:
``play_bots`` plays whole games in seconds by jumping from one deadline to the next.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime


class Simulated:
    def __init__(self, start: float) -> None:
        self.moment = start

    def advance_to(self, moment: float) -> float:
        self.moment = max(self.moment, moment)
        return self.moment


_simulated: Simulated | None = None


def now() -> float:
    return time.time() if _simulated is None else _simulated.moment


@contextmanager
def simulated(start: float) -> Iterator[Simulated]:
    global _simulated
    before, _simulated = _simulated, Simulated(start)
    try:
        yield _simulated
    finally:
        _simulated = before


def to_datetime(moment: float) -> datetime:
    return datetime.fromtimestamp(moment, tz=UTC)


def to_seconds(moment: datetime) -> float:
    return moment.timestamp()
