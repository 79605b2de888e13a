"""Which of a table's groups have a socket in them, so that nobody's picture is drawn
for no one: a language no spectator reads, a seat whose player is offline.

The in-memory layer knows its groups; on Redis a group is a pub/sub channel, which every
process with a member in it subscribes to. A group Redis found listened to is taken to be
listened to still for `HEARD_SECONDS` without asking again: nearly every commit asks of the
same groups, and a picture drawn for a group its last socket left a moment ago only costs
the drawing, while a group found without a socket is asked of every time, so a socket that
joins it is drawn for at once. A layer that cannot tell counts every group as listened to,
as does a Redis that does not answer (the outage is reported to `games.live.outages`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.live import outages
from games.live.layers import RedisPubSubChannelLayer, decoded
from games.live.outages import UNREACHABLE

logger = logging.getLogger(__name__)


HEARD_SECONDS = 1.0
"""How long a group Redis found listened to is taken to be listened to without asking."""


class Heard:
    """The groups this process found listened to lately, and until when it trusts that."""

    FORGET_AT = 10_000

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.until: dict[str, float] = {}

    def among(self, groups: list[str], now: float) -> set[str]:
        with self.lock:
            return {group for group in groups if self.until.get(group, 0.0) > now}

    def found(self, groups: Iterable[str], now: float) -> None:
        with self.lock:
            if len(self.until) > self.FORGET_AT:
                self.until = {group: at for group, at in self.until.items() if at > now}
            for group in groups:
                self.until[group] = now + HEARD_SECONDS


heard = Heard()


def listening(groups: Iterable[str]) -> set[str]:
    """The groups among `groups` that have at least one member."""
    wanted = list(groups)
    layer = get_channel_layer()
    if layer is None or not wanted:
        return set()
    if isinstance(layer, InMemoryChannelLayer):
        # Its groups are a dict of this process: read it here, without a trip to the loop.
        return {group for group in wanted if layer.groups.get(group)}
    now = time.monotonic()
    known = heard.among(wanted, now)
    asked = [group for group in wanted if group not in known]
    if not asked:
        return known
    try:
        found = async_to_sync(members_of)(layer, asked)
    except Exception:
        logger.exception("could not tell which groups are listened to")
        return set(wanted)
    heard.found(found, now)
    return known | found


async def members_of(layer: Any, groups: list[str]) -> set[str]:
    """One trip to each Redis host: how many connections subscribe to each group there."""
    if not isinstance(layer, RedisPubSubChannelLayer):
        return set(groups)
    loop_layer = layer._get_layer()
    names = {loop_layer._get_group_channel_name(group): group for group in groups}
    found: set[str] = set()
    for shard in loop_layer._shards:
        held = [name for name in names if loop_layer._get_shard(name) is shard]
        if not held:
            continue
        shard._ensure_redis()
        try:
            counts = await shard._redis.pubsub_numsub(*held)
        except UNREACHABLE as error:
            outages.failed(error)
            return set(groups)
        found.update(names[decoded(name)] for name, count in counts if count)
    return found
