"""Whether this process can reach Redis: an outage is logged once as it starts and once
as it ends (with its length and how many operations failed meanwhile), and counted
(`durak_redis_outages`, `durak_redis_outage_seconds`), never once per failed operation.

Whatever fails to reach Redis reports it here (`failed`); the channel layer's receivers
wait for Redis to answer again, subscribe this process's channels to their groups again
(a Redis started again is empty) and end the outage (`games.live.layers`).
"""

from __future__ import annotations

import logging
import threading
import time

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.live import metrics

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError)
"""What an operation raises when Redis does not answer."""


class Outage:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.began_at: float | None = None
        self.failures = 0

    @property
    def ongoing(self) -> bool:
        return self.began_at is not None

    def failed(self, error: BaseException) -> bool:
        """One operation could not reach Redis; whether this began an outage."""
        with self.lock:
            self.failures += 1
            if self.began_at is not None:
                return False
            self.began_at = time.monotonic()
        metrics.REDIS_OUTAGES.inc()
        logger.warning("Redis is unreachable: %s; live updates wait until it answers", error)
        return True

    def ended(self) -> None:
        with self.lock:
            if self.began_at is None:
                return
            lasted, failures = time.monotonic() - self.began_at, self.failures
            self.began_at, self.failures = None, 0
        metrics.REDIS_OUTAGE_SECONDS.inc(lasted)
        logger.warning(
            "Redis is reachable again: after %.1f s, %d operations failed meanwhile",
            lasted,
            failures,
        )


OUTAGE = Outage()


def failed(error: BaseException) -> None:
    """Report an operation that could not reach Redis (the channel layer's receivers see
    the outage themselves, and end it once Redis answers again)."""
    OUTAGE.failed(error)
