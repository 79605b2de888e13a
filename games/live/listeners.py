"""Which of a table's groups have a socket in them, so that nobody's picture is drawn
for no one: a language no spectator reads, a seat whose player is offline.

The in-memory layer knows its groups; on Redis a group is a sorted set of channels
(channels_redis 4). A layer that cannot tell counts every group as listened to, as does a
Redis that does not answer (the outage is reported to `games.live.outages`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.live import outages
from games.live.outages import UNREACHABLE

logger = logging.getLogger(__name__)


def listening(groups: Iterable[str]) -> set[str]:
    """The groups among `groups` that have at least one member."""
    wanted = list(groups)
    layer = get_channel_layer()
    if layer is None or not wanted:
        return set()
    if isinstance(layer, InMemoryChannelLayer):
        # Its groups are a dict of this process: read it here, without a trip to the loop.
        return {group for group in wanted if layer.groups.get(group)}
    try:
        return async_to_sync(members_of)(layer, wanted)
    except Exception:
        logger.exception("could not tell which groups are listened to")
        return set(wanted)


async def members_of(layer: Any, groups: list[str]) -> set[str]:
    """One trip to each Redis host: the size of every group it holds."""
    group_key = getattr(layer, "_group_key", None)
    if group_key is None:
        return set(groups)
    by_host: dict[int, list[str]] = {}
    for group in groups:
        by_host.setdefault(layer.consistent_hash(group), []).append(group)
    found: set[str] = set()
    for host, held in by_host.items():
        pipe = layer.connection(host).pipeline(transaction=False)
        for group in held:
            pipe.zcard(group_key(group))
        try:
            sizes = await pipe.execute()
        except UNREACHABLE as error:
            outages.failed(error, layer)
            return set(groups)
        found.update(group for group, size in zip(held, sizes, strict=True) if size)
    return found
