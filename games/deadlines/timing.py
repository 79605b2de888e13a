"""When each game version committed and how late each deadline fired.

Silent unless `DURAK_TIMING_LOG` names a file (see settings): `benchmarks/load.py`
sets it for the servers it starts and reads the lines back. One line per event:
`commit <game> <version> <time>` and `late <kind> <id> <deadline> <fired>`.
"""

from __future__ import annotations

import logging

from games import clock
from games.live import metrics

logger = logging.getLogger("games.deadlines.timing")


def committed(game_id: int, version: int) -> None:
    metrics.ACTIONS.inc()
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("commit %d %d %.6f", game_id, version, clock.now())


def fired(kind: str, key: int, deadline: float, at: float) -> None:
    metrics.LATENESS.labels(kind).observe(max(0.0, at - deadline))
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("late %s %d %.6f %.6f", kind, key, deadline, at)
