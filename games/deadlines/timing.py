"""When each game version committed and how late each deadline fired.

Silent unless `DURAK_TIMING_LOG` names a file (`settings.TIMING_LOG`): `benchmarks/load.py`
sets it for the servers it starts and reads the lines back. One line per event:
`commit <game> <version> <time>` and `late <kind> <id> <deadline> <fired>`.

Each line is one append to the file, written at once (a process killed the next moment
leaves every line it told), without the logging module's record, caller lookup and
handler lock: the lines are the benchmark's probe, and what they cost counts against the
site it measures.
"""

from __future__ import annotations

import os

from django.conf import settings

from games.live import metrics
from games.table import committed as writers
from games.table.committed import GameCommitted


class Lines:
    """The timing file (`settings.TIMING_LOG`, which the callers check is set), opened for
    appending on the first line told."""

    def __init__(self) -> None:
        self.fd: int | None = None

    def write(self, line: str) -> None:
        if self.fd is None:
            self.fd = os.open(settings.TIMING_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(self.fd, line.encode())


lines = Lines()


def log_commit(news: GameCommitted) -> None:
    metrics.ACTIONS.inc()
    if settings.TIMING_LOG:
        lines.write(f"commit {news.game.pk} {news.version} {news.at:.6f}\n")


def fired(kind: str, key: int, deadline: float, at: float) -> None:
    metrics.LATENESS.labels(kind).observe(max(0.0, at - deadline))
    if settings.TIMING_LOG:
        lines.write(f"late {kind} {key} {deadline:.6f} {at:.6f}\n")


def hear_the_writers() -> None:
    writers.game_committed.connect(
        lambda sender, committed, **_: log_commit(committed), weak=False, dispatch_uid="timing"
    )
