"""How often one address may make a costly request to the pages: at most ``count`` in a
window of ``seconds`` that opens with its first request, counted in Django's cache (in
Redis when ``REDIS_URL`` is set, so every server process shares the counts)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    """At most ``count`` uses in ``seconds``, per key: here per address; the sockets count
    theirs in ``games.live.ratelimit``."""

    name: str
    count: int
    seconds: float


def allows(limit: Limit, request: HttpRequest) -> bool:
    """Count the request; False once its address has spent the window's count."""
    key = f"throttle:{limit.name}:{request.META.get('REMOTE_ADDR', 'unknown')}"
    seconds = int(limit.seconds)
    try:
        cache.add(key, 0, seconds)
        try:
            used = cache.incr(key)
        except ValueError:
            # The window ended between the two calls: this request opens the next one.
            cache.add(key, 1, seconds)
            used = 1
    except RedisError:
        # A throttle that cannot count lets the request through rather than stop the site.
        logger.warning("throttle %s not counted: Redis did not answer", limit.name)
        return True
    return used <= limit.count
