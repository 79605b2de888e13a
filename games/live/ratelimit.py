"""How often someone may do something: at most `count` times in any `seconds`, per key.

Counts are shared by every connection and every server process: in Redis when
`REDIS_URL` is set, in this process otherwise (a Redis that does not answer counts
nothing and lets everyone through: `games.live.outages`). A refused attempt is not counted, so
whoever slows down is let through again as the window slides.

    CHAT = Limit("chat", count=5, seconds=10)
    if not await ratelimit.allow(CHAT, ratelimit.client_key(self.scope)):
        ...  # tell them to slow down
"""

from __future__ import annotations

import logging
import time
import uuid
import weakref
from asyncio import AbstractEventLoop, get_running_loop
from collections import deque
from typing import Any

import redis
from django.conf import settings
from redis import asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from durak_site.throttle import Limit
from games.live import outages
from games.live.outages import UNREACHABLE

logger = logging.getLogger(__name__)


def client_key(scope: dict[str, Any]) -> str:
    """Whose budget a connection spends: the player's when logged in, else the address's."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return address_key(scope)


def address_key(scope: dict[str, Any]) -> str:
    client = scope.get("client") or ("unknown", 0)
    return f"ip:{client[0]}"


async def allow(limit: Limit, key: str, now: float | None = None) -> bool:
    """Count one use of `limit` by `key` at `now`; False, counting nothing, once it is spent."""
    moment = time.time() if now is None else now
    if not settings.REDIS_URL:
        return LOCAL.hit(limit, key, moment)
    try:
        return await shared().hit(limit, key, moment)
    except UNREACHABLE as error:
        outages.failed(error)
        return True
    except Exception:
        # A limiter that cannot count lets the message through rather than stop the game.
        logger.warning("rate limit %s not counted: Redis did not answer", limit.name)
        return True


class LocalCounter:
    """The uses of the last window, per key, in this process."""

    SWEEP_AT = 10_000

    def __init__(self) -> None:
        self.uses: dict[tuple[str, str], deque[float]] = {}

    def hit(self, limit: Limit, key: str, now: float) -> bool:
        if len(self.uses) >= self.SWEEP_AT:
            self.sweep(now)
        uses = self.uses.setdefault((limit.name, key), deque())
        while uses and uses[0] <= now - limit.seconds:
            uses.popleft()
        if len(uses) >= limit.count:
            return False
        uses.append(now)
        return True

    def sweep(self, now: float, horizon: float = 3600.0) -> None:
        self.uses = {
            key: uses for key, uses in self.uses.items() if uses and uses[-1] > now - horizon
        }

    def clear(self) -> None:
        self.uses.clear()


# One sorted set per key: the moments of the uses still inside the window.
HIT_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.ceil(ARGV[2] * 1000))
return 1
"""


class RedisCounter:
    def __init__(self, url: str, prefix: str) -> None:
        # One retry, at once: enough for a connection to a Redis that was started again,
        # where redis-py's default (ten, backing off) would hold every message up in an outage.
        self.client = aioredis.Redis.from_url(
            url, socket_timeout=2, socket_connect_timeout=2, retry=Retry(NoBackoff(), 1)
        )
        self.script = self.client.register_script(HIT_SCRIPT)
        self.prefix = prefix

    async def hit(self, limit: Limit, key: str, now: float) -> bool:
        allowed = await self.script(
            keys=[f"{self.prefix}:rate:{limit.name}:{key}"],
            args=[repr(now), repr(float(limit.seconds)), limit.count, uuid.uuid4().hex],
        )
        return bool(allowed)


def forget_all() -> None:
    """Forget every count, in this process and in Redis: a fresh start for every budget."""
    LOCAL.clear()
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL)
        try:
            for key in client.scan_iter(f"{settings.REDIS_PREFIX}:rate:*"):
                client.delete(key)
        finally:
            client.close()


LOCAL = LocalCounter()
# A Redis client belongs to the event loop it was made on.
_shared: weakref.WeakKeyDictionary[AbstractEventLoop, RedisCounter] = weakref.WeakKeyDictionary()


def shared() -> RedisCounter:
    loop = get_running_loop()
    if loop not in _shared:
        _shared[loop] = RedisCounter(settings.REDIS_URL, settings.REDIS_PREFIX)
    return _shared[loop]
