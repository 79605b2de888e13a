"""The pub/sub layer's Redis from a writer's thread: a blocking client per host of the
layer, with the layer's names for groups, its shard of each name and its serializer, so
that a writer asks which groups are listened to (`games.live.listeners`) and publishes what
it committed (`games.live.broadcast`) without a hop to an event loop and back.

The layer's own naming and sharding live on its per-loop layer, which it builds only inside
a running event loop; they are written again here (`group_channel`, `shard`), and the
real-Redis tests join a group through the layer and reach it through these, so the two
cannot drift apart unseen.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping
from typing import Any

import redis
from channels_redis.utils import _consistent_hash, decode_hosts

from games.live import outages
from games.live.layers import RedisPubSubChannelLayer, decoded
from games.live.outages import UNREACHABLE

TIMEOUT_SECONDS = 1.0
"""How long a writer waits for Redis to answer."""


class Unreachable(Exception):
    """Redis did not answer (the outage is reported to `games.live.outages`)."""


class BlockingRedis:
    def __init__(self, layer: RedisPubSubChannelLayer) -> None:
        config = layer._kwargs
        self.layer = layer
        self.prefix = config.get("prefix", "asgi")
        self.clients = [client_of(host) for host in decode_hosts(config.get("hosts"))]

    def group_channel(self, group: str) -> str:
        return f"{self.prefix}__group__{group}"

    def shard(self, name: str) -> int:
        return _consistent_hash(name, len(self.clients))

    def members_of(self, groups: Iterable[str]) -> set[str]:
        """One trip to each Redis host: which of `groups` a connection subscribes to."""
        names = {self.group_channel(group): group for group in groups}
        found: set[str] = set()
        for index, client in enumerate(self.clients):
            held = [name for name in names if self.shard(name) == index]
            if held:
                counts = answered(lambda c=client, h=held: c.pubsub_numsub(*h))
                found.update(names[decoded(name)] for name, count in counts if count)
        return found

    def publish(self, messages: Iterable[tuple[str, Mapping[str, Any]]]) -> None:
        """Publish each message to its channel (a group's, from `group_channel`, or one
        socket's), in order, in one trip to each Redis host."""
        pipelines: dict[int, Any] = {}
        for channel, message in messages:
            index = self.shard(channel)
            pipeline = pipelines.get(index)
            if pipeline is None:
                pipeline = pipelines[index] = self.clients[index].pipeline(transaction=False)
            pipeline.publish(channel, self.layer.serialize(message))
        for pipeline in pipelines.values():
            answered(pipeline.execute)


def answered(call: Any) -> Any:
    try:
        return call()
    except UNREACHABLE as error:
        outages.failed(error)
        raise Unreachable(str(error)) from error


def client_of(host: dict[str, Any]) -> redis.Redis:
    options = {
        **host,
        "socket_timeout": TIMEOUT_SECONDS,
        "socket_connect_timeout": TIMEOUT_SECONDS,
    }
    address = options.pop("address", None)
    if address is None:
        return redis.Redis(**options)
    return redis.Redis.from_url(address, **options)


_clients: weakref.WeakKeyDictionary[Any, BlockingRedis] = weakref.WeakKeyDictionary()


def of(layer: Any) -> BlockingRedis | None:
    """The blocking side of a Redis pub/sub layer; None for any other layer."""
    if not isinstance(layer, RedisPubSubChannelLayer):
        return None
    found = _clients.get(layer)
    if found is None:
        found = _clients[layer] = BlockingRedis(layer)
    return found
