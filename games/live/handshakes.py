"""Handshakes wait in line: a socket's first picture is drawn at most `HANDSHAKES_AT_ONCE`
at a time, seated players' before spectators', so a crowd of spectators coming back at
once never keeps a player from their table.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator

HANDSHAKES_AT_ONCE = 2


class HandshakeLine:
    """At most `at_once` holders at a time; when one leaves, a waiting seated player goes
    before any waiting spectator, each kind in the order they came."""

    def __init__(self, at_once: int = HANDSHAKES_AT_ONCE) -> None:
        self.free = at_once
        self.seated: deque[asyncio.Future[None]] = deque()
        self.spectators: deque[asyncio.Future[None]] = deque()

    @contextlib.asynccontextmanager
    async def turn(self, *, seated: bool) -> AsyncIterator[None]:
        if self.free > 0 and not self.seated and not self.spectators:
            self.free -= 1
        else:
            ticket = asyncio.get_running_loop().create_future()
            (self.seated if seated else self.spectators).append(ticket)
            try:
                await ticket
            except asyncio.CancelledError:
                if ticket.done() and not ticket.cancelled():
                    self.leave()
                else:
                    with contextlib.suppress(ValueError):
                        (self.seated if seated else self.spectators).remove(ticket)
                raise
        try:
            yield
        finally:
            self.leave()

    def leave(self) -> None:
        for line in (self.seated, self.spectators):
            while line:
                ticket = line.popleft()
                if not ticket.done():
                    ticket.set_result(None)
                    return
        self.free += 1


handshakes = HandshakeLine()
