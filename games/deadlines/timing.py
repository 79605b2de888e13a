"""When each game version committed and how late each deadline fired.

Silent unless `DURAK_TIMING_LOG` names a file (see settings): `benchmarks/load.py`
sets it for the servers it starts and reads the lines back. One line per event:
`commit <game> <version> <time>` and `late <kind> <id> <deadline> <fired>`.
"""

from __future__ import annotations

import logging

from games.live import metrics
from games.table import committed as writers
from games.table.committed import GameCommitted

logger = logging.getLogger("games.deadlines.timing")


def log_commit(news: GameCommitted) -> None:
    metrics.ACTIONS.inc()
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("commit %d %d %.6f", news.game.pk, news.version, news.at)


def fired(kind: str, key: int, deadline: float, at: float) -> None:
    metrics.LATENESS.labels(kind).observe(max(0.0, at - deadline))
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("late %s %d %.6f %.6f", kind, key, deadline, at)


def hear_the_writers() -> None:
    writers.game_committed.connect(
        lambda sender, committed, **_: log_commit(committed), weak=False, dispatch_uid="timing"
    )
