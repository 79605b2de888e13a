"""The deadline scheduler: one asyncio loop that fires every due deadline through the
game writer (`games.play`), whether embedded in a server process or run on its own.

It sleeps until the earliest deadline, never longer than a sweep interval, and is
woken through the channel layer when a nearer deadline is written. Several may run
at once: the writer locks the game row and re-checks the deadline, so each deadline
acts once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from games import clock, play, standup, tables, timing
from games.broadcast import SCHEDULER_GROUP
from games.models import Game, Table

logger = logging.getLogger(__name__)

SWEEP_SECONDS = 0.25
REJOIN_SECONDS = 3600.0


@database_sync_to_async
def fire_due() -> int:
    """Start every table whose start time has come, stand up every player whose grace
    after a game ran out, and tick every due game."""
    now = clock.now()
    fired = fire_each("start", due_tables(now), lambda pk, at: play.start(pk) is not None)
    fired += fire_each("standup", standup.due(now), tables.stand_up)
    return fired + fire_each("game", due_games(now), play.tick)


def fire_each(kind: str, due: list[tuple[int, float]], act: Callable[[int, float], bool]) -> int:
    """Carry out each due deadline on its own: one that fails is logged, the rest go on."""
    fired = 0
    for key, deadline in due:
        at = clock.now()
        try:
            done = act(key, at)
        except Exception:
            logger.exception("the %s deadline of %s failed", kind, key)
            continue
        if done:
            timing.fired(kind, key, deadline, at)
        fired += done
    return fired


def due_games(now: float) -> list[tuple[int, float]]:
    """Each running game whose deadline has come, with that deadline, earliest first."""
    due = Game.objects.filter(status=Game.Status.RUNNING, deadline_at__lte=clock.to_datetime(now))
    return [
        (pk, clock.to_seconds(at))
        for pk, at in due.order_by("deadline_at").values_list("pk", "deadline_at")
    ]


def due_tables(now: float) -> list[tuple[int, float]]:
    """Each open table whose start time has come, with that time, earliest first."""
    due = Table.objects.filter(status=Table.Status.OPEN, starts_at__lte=clock.to_datetime(now))
    return [
        (pk, clock.to_seconds(at))
        for pk, at in due.order_by("starts_at").values_list("pk", "starts_at")
    ]


def next_deadline() -> float | None:
    game_at = (
        Game.objects.filter(status=Game.Status.RUNNING, deadline_at__isnull=False)
        .order_by("deadline_at")
        .values_list("deadline_at", flat=True)
        .first()
    )
    table_at = (
        Table.objects.filter(status=Table.Status.OPEN, starts_at__isnull=False)
        .order_by("starts_at")
        .values_list("starts_at", flat=True)
        .first()
    )
    moments = [clock.to_seconds(m) for m in (game_at, table_at) if m is not None]
    release_at = standup.next_release()
    if release_at is not None:
        moments.append(release_at)
    return min(moments, default=None)


class Scheduler:
    def __init__(self, sweep: float = SWEEP_SECONDS) -> None:
        self.sweep = sweep
        self.stopping = asyncio.Event()

    async def run(self) -> None:
        layer = get_channel_layer()
        channel = await layer.new_channel() if layer is not None else None
        joined_at = 0.0
        while not self.stopping.is_set():
            if channel is not None and time.monotonic() - joined_at > REJOIN_SECONDS:
                await layer.group_add(SCHEDULER_GROUP, channel)
                joined_at = time.monotonic()
            try:
                await fire_due()
                upcoming = await database_sync_to_async(next_deadline)()
            except Exception:
                logger.exception("the scheduler's sweep failed")
                upcoming = None
            wait = self.sweep
            if upcoming is not None:
                wait = max(0.0, min(wait, upcoming - clock.now()))
            await self.sleep(layer, channel, wait)
        if channel is not None:
            await layer.group_discard(SCHEDULER_GROUP, channel)

    async def sleep(self, layer: object, channel: str | None, seconds: float) -> None:
        if seconds <= 0:
            return
        if channel is None:
            await asyncio.sleep(seconds)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(layer.receive(channel), seconds)  # type: ignore[attr-defined]

    def stop(self) -> None:
        self.stopping.set()


_embedded: asyncio.Task[None] | None = None


def ensure_embedded() -> None:
    """Start the scheduler inside this server process, once, on first use."""
    global _embedded
    if not settings.EMBEDDED_SCHEDULER:
        return
    if _embedded is not None and not _embedded.done():
        return
    _embedded = asyncio.get_running_loop().create_task(Scheduler().run(), name="durak-scheduler")
