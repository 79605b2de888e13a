"""The channel layers the site runs on (`CHANNEL_LAYERS` in the settings): Channels'
in-memory layer and channels_redis's pub/sub layer, counting the messages an inbox was too
full to take (`durak_layer_inbox_full`).

A send to one channel in memory raises `ChannelFull`; a group send drops silently for each
member whose inbox is full. On Redis a group send is one PUBLISH; each process hands what it
hears to its own channels' inboxes, and drops (and counts) what a full one cannot take.

On Redis the layer also rides out an outage (`games.live.outages`): a receiver waits for Redis
to answer again instead of failing its socket, a join made meanwhile is kept, and once
Redis answers (started again, it is empty) every channel of this process is subscribed
again and sent `layer.resumed`, so that a socket can catch up on what it missed.

Each process that subscribes to a group it had no member in tells every other (`Joins`), so
that a writer may go on trusting that a group it found without a socket still has none
until one joins (`games.live.listeners`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import Any

from channels import layers
from channels.exceptions import ChannelFull
from channels_redis import pubsub

from games.live import metrics, outages
from games.live.outages import UNREACHABLE

logger = logging.getLogger(__name__)

CLEAN_EVERY_SECONDS = 1.0
PROBE_SECONDS = 0.5
"""How often the layer asks an unreachable Redis whether it answers again."""
RESUMED = {"type": "layer.resumed"}
LISTEN_SECONDS = 0.1
"""How long a pub/sub receiver waits for a message before it looks at its state again."""


JOINED = "__joined"
"""The pub/sub channel (after the layer's prefix) on which each process says which group
channel it just subscribed to."""
GROUP = "__group__"


class Joins:
    """When this process last heard that a socket of any process joined each group channel,
    and whether it hears that at all: only while a layer of this process listens on its
    `JOINED` channel, and not across an outage of Redis (what was said meanwhile is lost)."""

    FORGET_AT = 10_000

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.at: dict[str, float] = {}
        self.hearing: set[int] = set()
        """The layers of this process that listen for joins, by id."""
        self.lost_at = float("-inf")

    def heard(self, group_channel: str) -> None:
        now = time.monotonic()
        with self.lock:
            if len(self.at) > self.FORGET_AT:
                self.at = {}
                self.lost_at = now
            self.at[group_channel] = now

    def listening(self, layer: object, hears: bool) -> None:
        with self.lock:
            if hears:
                self.hearing.add(id(layer))
            else:
                self.hearing.discard(id(layer))
                self.lost_at = time.monotonic()

    def lost(self) -> None:
        with self.lock:
            self.lost_at = time.monotonic()

    def joined_since(self, group_channel: str, moment: float) -> bool:
        """Whether a socket may have joined the group channel since `moment` (monotonic):
        always, unless this process heard every join since then."""
        with self.lock:
            if not self.hearing or self.lost_at >= moment:
                return True
            return self.at.get(group_channel, float("-inf")) >= moment


joins = Joins()


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


class PubSubShard(pubsub.RedisSingleShardConnection):
    """One Redis connection of a process's pub/sub layer. A subscription Redis cannot take
    now is kept, and made once Redis answers again; its receiver reports an outage instead of
    logging each failed read; a message an inbox has no room for is counted and dropped for
    that inbox only."""

    def __init__(self, host: Any, channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self.wanted: set[str] = set()
        """Every channel this process should hear, whether Redis took the subscription yet."""
        self.lost = False

    async def publish(self, channel: str, message: Any) -> None:
        try:
            await super().publish(channel, message)
        except UNREACHABLE as error:
            self.connection_lost(error)
            raise

    async def subscribe(self, channel: str) -> None:
        self.wanted.add(channel)
        first = channel not in self._subscribed_to
        try:
            await super().subscribe(channel)
        except UNREACHABLE as error:
            self.connection_lost(error)
            return
        if first and GROUP in channel:
            await self.channel_layer.tell_joined(channel)

    async def unsubscribe(self, channel: str) -> None:
        self.wanted.discard(channel)
        try:
            await super().unsubscribe(channel)
        except UNREACHABLE as error:
            self.connection_lost(error)

    def connection_lost(self, error: BaseException) -> None:
        self.lost = True
        joins.lost()
        outages.OUTAGE.failed(error)
        self._ensure_receiver()

    async def _do_receiving(self) -> None:
        while True:
            try:
                await self.receive_once()
            except UNREACHABLE as error:
                self.connection_lost(error)
                await asyncio.sleep(PROBE_SECONDS)
            except Exception:
                logger.exception("the pub/sub receiver failed; it listens again")
                await asyncio.sleep(PROBE_SECONDS)

    async def receive_once(self) -> None:
        if self.lost:
            await self.resume()
        if self._pubsub is not None and self._pubsub.subscribed:
            message = await self._pubsub.get_message(
                ignore_subscribe_messages=True, timeout=LISTEN_SECONDS
            )
            self._receive_message(message)
        else:
            await asyncio.sleep(PROBE_SECONDS)

    async def resume(self) -> None:
        """Redis answers again (started again, it is empty): subscribe to every channel
        anew, tell every process of the groups joined again (a writer that found one empty
        meanwhile would go on trusting that), and tell each of this process's channels, so
        its socket catches up."""
        async with self._lock:
            self._ensure_redis()
            assert self._redis is not None and self._pubsub is not None
            await self._redis.ping()
            await self._pubsub.aclose()
            self._subscribed_to = set()
            for channel in sorted(self.wanted):
                await self._pubsub.subscribe(channel)
                self._subscribed_to.add(channel)
        self.lost = False
        for channel in sorted(self.wanted):
            if GROUP in channel:
                await self.channel_layer.tell_joined(channel)
        for inbox in self.channel_layer.channels.values():
            self.deliver(inbox, self.channel_layer.channel_layer.serialize(RESUMED))
        outages.OUTAGE.ended()

    def _receive_message(self, message: dict[str, Any] | None) -> None:
        if message is None:
            return
        name = decoded(message["channel"])
        layer = self.channel_layer
        if name == layer.joined_channel:
            joins.heard(decoded(message["data"]))
            return
        inboxes = (
            [layer.channels[name]]
            if name in layer.channels
            else [
                layer.channels[channel]
                for channel in layer.groups.get(name, ())
                if channel in layer.channels
            ]
        )
        for inbox in inboxes:
            self.deliver(inbox, message["data"])

    @staticmethod
    def deliver(inbox: asyncio.Queue[Any], data: Any) -> None:
        try:
            inbox.put_nowait(data)
        except asyncio.QueueFull:
            metrics.INBOX_FULL.inc()


def decoded(name: str | bytes) -> str:
    """A channel's name as redis-py gives it (bytes unless told to decode), as text."""
    return name.decode() if isinstance(name, bytes) else name


class PubSubLoopLayer(pubsub.RedisPubSubLoopLayer):
    """The layer on one event loop: its shards are `PubSubShard`s, and each inbox holds at
    most `capacity` messages."""

    def __init__(self, *args: Any, capacity: int = 100, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.capacity = capacity
        hosts: list[Any] = [shard.host for shard in self._shards]  # type: ignore[has-type]
        self._shards = [PubSubShard(host, self) for host in hosts]
        self.joined_channel = f"{self.prefix}{JOINED}"
        self.hears_joins = False

    async def _subscribe_to_channel(self, channel: str) -> None:
        self.channels[channel] = asyncio.Queue(maxsize=self.capacity)
        await self.hear_joins()
        await self._get_shard(channel).subscribe(channel)

    async def hear_joins(self) -> None:
        """Listen for the joins of every process (`Joins`), once."""
        if self.hears_joins:
            return
        self.hears_joins = True
        shard = self._get_shard(self.joined_channel)
        await shard.subscribe(self.joined_channel)
        if self.joined_channel in shard._subscribed_to:
            joins.listening(self, True)

    async def tell_joined(self, group_channel: str) -> None:
        """Tell every process that this one now has a member in the group channel."""
        with contextlib.suppress(*UNREACHABLE):
            await self._get_shard(self.joined_channel).publish(self.joined_channel, group_channel)

    async def flush(self) -> None:
        joins.listening(self, False)
        self.hears_joins = False
        await super().flush()


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    """channels_redis's pub/sub layer: a group send is one PUBLISH, and each process hands
    what it hears to its own channels. Through an outage a receiver waits instead of
    failing, and once Redis answers again every channel is subscribed anew and sent
    `layer.resumed` (`PubSubShard`)."""

    def _get_layer(self) -> PubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = PubSubLoopLayer(
                *self._args, **self._kwargs, channel_layer=self
            )
            pubsub._wrap_close(self, loop)
        return layer
