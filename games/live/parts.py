"""What other apps add to the table socket: the messages they take and the events they send.

The table socket (`games.live.consumers.TableConsumer`) owns the connection and knows
nothing of them: an app registers a `SocketPart` at start-up (`register`), each table
socket makes one of each for itself, hands it the messages whose `action` it names (as
`protocol.parse` read them, through the part's `parse`) and the channel-layer events of
the types it names, and sends what `connected` draws with its first picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol


class TableSocket(Protocol):
    """What a part may use of the socket it belongs to."""

    table_id: int
    user: Any
    scope: dict[str, Any]
    language: str

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None: ...

    async def notice(self, message: str) -> None: ...

    async def join(self, group: str) -> None: ...


class SocketPart:
    """An app's half of one table socket. `actions` are the messages it takes, `events`
    the channel-layer message types it hears ("chat.line")."""

    actions: ClassVar[tuple[str, ...]] = ()
    events: ClassVar[tuple[str, ...]] = ()

    def __init__(self, socket: TableSocket) -> None:
        self.socket = socket

    @classmethod
    def parse(cls, data: dict[str, object]) -> object:
        """The command a message of one of `actions` asks for; `ProtocolError` (from
        `games.live.protocol`) with the reason in words when it asks for none."""
        raise NotImplementedError

    async def connected(self) -> str:
        """HTML to send with the socket's first picture (and again on a reconnect)."""
        return ""

    async def carry_out(self, command: Any) -> None:
        """What a parsed message asks."""

    async def hear(self, event: dict[str, Any]) -> None:
        """A channel-layer event of one of `events`."""


_registered: list[type[SocketPart]] = []


def register(part: type[SocketPart]) -> None:
    if part not in _registered:
        _registered.append(part)


def registered() -> Sequence[type[SocketPart]]:
    return tuple(_registered)


def taking(action: str) -> type[SocketPart] | None:
    """The registered part whose messages have this `action`, if one has."""
    return next((part for part in _registered if action in part.actions), None)
