"""An uploaded export replayed (``/replay/frames.json``): at most ``UPLOADS`` a minute from
one address, and each distinct file verified once, its answer kept by the file's SHA-256.

A file is only ever read, never stored, so the same bytes always get the same answer; the
answers are kept in Django's cache (Redis when ``REDIS_URL`` is set), for an hour at most.
"""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language
from redis.exceptions import RedisError

from durak_site.throttle import Limit
from games.records import viewer
from games.records.record_shape import Unreadable, read
from games.records.replay import Mismatch
from games.records.verification import verify

UPLOADS = Limit("replay-upload", count=10, seconds=60)
KEPT_SECONDS = 3600


def frames(body: bytes, seat: str) -> dict[str, Any]:
    """The replay of the file seen from ``seat`` (``viewer.OPEN`` or a number); raises
    ``Unreadable`` or ``Mismatch`` for a file that does not verify, ``ValueError`` for a
    seat the game has not."""
    digest = hashlib.sha256(body).hexdigest()
    check_once(body, digest)
    record = read(body)
    chosen = viewer.seat_named(seat, len(record["players"]))
    key = f"upload-frames:{digest}:{seat}:{get_language()}"
    shown = kept(key)
    if shown is None:
        shown = viewer.frames(record, chosen)
        keep(key, shown)
    return shown


def kept(key: str) -> Any:
    try:
        return cache.get(key)
    except RedisError:
        return None


def keep(key: str, value: Any) -> None:
    """Remember an answer; one the cache cannot hold is worked out again next time."""
    with contextlib.suppress(RedisError):
        cache.set(key, value, KEPT_SECONDS)


def check_once(body: bytes, digest: str) -> None:
    key = f"upload-verdict:{digest}"
    verdict = kept(key)
    if verdict is None:
        try:
            verify(read(body))
            verdict = ("verified", "")
        except Unreadable as unreadable:
            verdict = ("unreadable", str(unreadable))
        except Mismatch as difference:
            verdict = ("mismatch", str(difference))
        keep(key, verdict)
    kind, text = verdict
    if kind == "unreadable":
        raise Unreadable(text)
    if kind == "mismatch":
        raise Mismatch(text)
