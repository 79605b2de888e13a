"""The channel layers the site runs on (`CHANNEL_LAYERS` in the settings): Channels' own,
counting the messages an inbox was too full to take (`durak_layer_inbox_full`).

A send to one channel raises `ChannelFull`; a group send drops silently: the in-memory
layer swallows `ChannelFull` for each member channel over capacity, and channels_redis
skips each inbox over capacity (a server process's inbox, shared by all its sockets) and
says so only in an INFO log line carrying the number, which is what is counted here.

On Redis the layer also rides out an outage (`games.live.outages`): a receiver waits for Redis
to answer again instead of failing its socket, a join made meanwhile is kept, and once
Redis answers (started again, it is empty) every channel of this process is put back in
its groups and sent `layer.resumed`, so that a socket can catch up on what it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from channels import layers
from channels.exceptions import ChannelFull
from channels_redis import core

from games.live import metrics, outages
from games.live.outages import UNREACHABLE

CLEAN_EVERY_SECONDS = 1.0
REDIS_LOGGER = "channels_redis.core"
OVER_CAPACITY = "%s of %s channels over capacity in group %s"
PROBE_SECONDS = 0.5
"""How often the layer asks an unreachable Redis whether it answers again."""
RESUMED = {"type": "layer.resumed"}


class CountsFullInboxes:
    async def send(self, channel: str, message: dict[str, Any]) -> None:
        try:
            await super().send(channel, message)  # type: ignore[misc]
        except ChannelFull:
            metrics.INBOX_FULL.inc()
            raise


class InMemoryChannelLayer(CountsFullInboxes, layers.InMemoryChannelLayer):
    """It looks for expired messages and group memberships once a second, not on every
    receive and group send (each look goes through every channel and group: at hundreds of
    sockets, a tenth of the server's time); messages expire after a minute, so nothing
    lingers noticeably longer.

    A message is put in each member's inbox as it is, not a deep copy of it per member, and
    a group send puts it in every inbox at once instead of a task per member: the site's
    messages are built for sending and never changed after, and they carry whole pictures
    to every socket of a table."""

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        self.require_valid_channel_name(channel)
        self.put(channel, message)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):
                self.put(channel, message)

    def put(self, channel: str, message: dict[str, Any]) -> None:
        assert "__asgi_channel__" not in message
        inbox = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            inbox.put_nowait((time.time() + self.expiry, message))
        except asyncio.QueueFull:
            metrics.INBOX_FULL.inc()
            raise ChannelFull(channel) from None

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - getattr(self, "cleaned_at", float("-inf")) < CLEAN_EVERY_SECONDS:
            return
        self.cleaned_at = now
        super()._clean_expired()


class OverCapacity(logging.Filter):
    """Counts the inboxes channels_redis reports a group message did not fit in."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == OVER_CAPACITY and isinstance(record.args, tuple):
            skipped = record.args[0]
            if isinstance(skipped, int):
                metrics.INBOX_FULL.inc(skipped)
        return True


OVER_CAPACITY_FILTER = OverCapacity()


class RedisChannelLayer(CountsFullInboxes, core.RedisChannelLayer):
    """Its group send writes to the inboxes itself and reports those it skipped."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        reports = logging.getLogger(REDIS_LOGGER)
        if not reports.isEnabledFor(logging.INFO):
            reports.setLevel(logging.INFO)
        reports.addFilter(OVER_CAPACITY_FILTER)
        self.members: dict[str, set[str]] = {}
        """This process's channels in each group, to join again after an outage."""
        self.probes: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}

    async def receive(self, channel: str) -> dict[str, Any]:
        while True:
            try:
                return await super().receive(channel)
            except UNREACHABLE as error:
                outages.failed(error, self)
                probe = self.watch()
                if probe is not None:
                    await asyncio.shield(probe)

    async def group_add(self, group: str, channel: str) -> None:
        """Joined here at once; in Redis now, or once it answers again."""
        self.members.setdefault(group, set()).add(channel)
        try:
            await super().group_add(group, channel)
        except UNREACHABLE as error:
            outages.failed(error, self)

    async def group_discard(self, group: str, channel: str) -> None:
        """Left here at once; a Redis that does not answer forgets the channel in time."""
        channels = self.members.get(group)
        if channels is not None:
            channels.discard(channel)
            if not channels:
                del self.members[group]
        try:
            await super().group_discard(group, channel)
        except UNREACHABLE as error:
            outages.failed(error, self)

    async def _clean_receive_backup(self, index: int, channel: str) -> None:
        """channels_redis runs it as a task no one awaits: a Redis that went away took the
        backup with it, so the failure only counts in the outage."""
        try:
            await super()._clean_receive_backup(index, channel)
        except UNREACHABLE as error:
            outages.failed(error, self)

    def watch(self) -> asyncio.Task[None] | None:
        """The task on this event loop that waits for Redis to answer again (started if
        none is waiting); None outside an event loop."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None
        probe = self.probes.get(loop)
        if probe is None or probe.done():
            probe = self.probes[loop] = loop.create_task(self.until_back(), name="redis-probe")
        return probe

    async def until_back(self) -> None:
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            try:
                await self.rejoin()
            except UNREACHABLE:
                continue
            break
        outages.OUTAGE.ended()

    async def rejoin(self) -> None:
        """Forget the connections to the Redis that went away, join every group again and
        tell every channel (through Redis: a receiver waits on it, not on this process)."""
        for index in range(self.ring_size):
            connection = self.connection(index)
            await connection.connection_pool.disconnect(inuse_connections=False)
            await connection.ping()
        for group, channels in list(self.members.items()):
            for channel in list(channels):
                await super().group_add(group, channel)
        for channel in {channel for channels in self.members.values() for channel in channels}:
            await super().send(channel, dict(RESUMED))
