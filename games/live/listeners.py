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

from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.live import blocking

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
        found = members_of(layer, asked)
    except Exception:
        logger.exception("could not tell which groups are listened to")
        return set(wanted)
    heard.found(found, now)
    return known | found


def members_of(layer: Any, groups: list[str]) -> set[str]:
    """Which of `groups` have a member: every one, for a layer that cannot tell or a Redis
    that does not answer."""
    client = blocking.of(layer)
    if client is None:
        return set(groups)
    try:
        return client.members_of(groups)
    except blocking.Unreachable:
        return set(groups)
