"""Which of a table's groups have a socket in them, so that nobody's picture is drawn
for no one: a language no spectator reads, a seat whose player is offline.

The in-memory layer knows its groups; on Redis a group is a sorted set of channels
(channels_redis 4). A layer that cannot tell counts every group as listened to.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

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
    group_key = getattr(layer, "_group_key", None)
    if group_key is None:
        return set(groups)
    found = set()
    for group in groups:
        connection = layer.connection(layer.consistent_hash(group))
        if await connection.zcard(group_key(group)):
            found.add(group)
    return found
