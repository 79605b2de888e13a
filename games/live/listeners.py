"""Which of a table's groups have a socket in them, so that nobody's picture is drawn
for no one: a language no spectator reads, a seat whose player is offline.

The in-memory layer knows its groups; on Redis a group is a pub/sub channel, which every
process with a member in it subscribes to. A group Redis found listened to is taken to be
listened to still for `HEARD_SECONDS` without asking again: nearly every commit asks of the
same groups, and a picture drawn for a group its last socket left a moment ago only costs
the drawing. A group found without a socket is taken to have none still for
`UNHEARD_SECONDS`, unless this process hears of a join to it since (each process that
subscribes to a group tells every other: `games.live.layers.Joins`), so a socket that joins
it is drawn for at once; a process that does not hear the joins asks of it every time. A
layer that cannot tell counts every group as listened to, as does a Redis that does not
answer (the outage is reported to `games.live.outages`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.live import blocking
from games.live.layers import joins

logger = logging.getLogger(__name__)


HEARD_SECONDS = 10.0
"""How long a group Redis found listened to is taken to be listened to without asking: a
table's groups are asked of about once in that long instead of at nearly every commit."""
UNHEARD_SECONDS = 10.0
"""How long a group Redis found without a socket is taken to have none, while no join to it
is heard."""


class Heard:
    """The groups this process found listened to lately, and until when it trusts that."""

    FORGET_AT = 10_000

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.until: dict[str, float] = {}
        self.empty_at: dict[str, float] = {}
        """When each group was last found without a socket."""

    def among(self, groups: list[str], now: float) -> set[str]:
        with self.lock:
            return {group for group in groups if self.until.get(group, 0.0) > now}

    def still_empty(self, groups: dict[str, str], now: float) -> set[str]:
        """Those of `groups` (each with its layer channel) found without a socket within
        `UNHEARD_SECONDS`, that no socket joined since as far as this process heard."""
        with self.lock:
            found = {group: self.empty_at.get(group) for group in groups}
        return {
            group
            for group, at in found.items()
            if at is not None
            and now - at < UNHEARD_SECONDS
            and not joins.joined_since(groups[group], at)
        }

    def found_empty(self, groups: Iterable[str], now: float) -> None:
        with self.lock:
            if len(self.empty_at) > self.FORGET_AT:
                self.empty_at = {
                    g: at for g, at in self.empty_at.items() if now - at < UNHEARD_SECONDS
                }
            for group in groups:
                self.empty_at[group] = now

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
    client = blocking.of(layer)
    if client is not None:
        unknown = {g: client.group_channel(g) for g in wanted if g not in known}
        known_empty = heard.still_empty(unknown, now)
    else:
        known_empty = set()
    asked = [group for group in wanted if group not in known and group not in known_empty]
    if not asked:
        return known
    try:
        found = members_of(layer, asked)
    except Exception:
        logger.exception("could not tell which groups are listened to")
        return set(wanted)
    heard.found(found, now)
    if client is not None:
        heard.found_empty([group for group in asked if group not in found], now)
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
