"""What every socket of the site guarantees, whatever its job.

- It leaves every group it joined, however it ends: a clean close, a client that
  vanished, or an exception in any handler (which is logged, counted and answered
  with a notice and close code 4500).
- It closes with an application code (4000–4999) after a notice saying why.
- It counts its messages against the sender's budget the moment they arrive (per
  player, per address for anyone else, across connections and processes), so a
  flooder cannot reset it by reconnecting and a player whose messages waited behind a
  slow one is not cut off when they are processed together.
- It sends nothing once it is closing or its client has gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import get_supported_language_variant
from django.utils.translation import gettext_lazy as _
from django.utils.translation.trans_real import parse_accept_lang_header

from games.live import broadcast, failures, metrics
from games.live.ratelimit import Limit, address_key, allow, client_key
from games.picture import notices

logger = logging.getLogger(__name__)

StrOrPromise = str | Promise

NOT_ALLOWED = 4403
UNEXPECTED_MESSAGE = 4400
TOO_MANY_MESSAGES = 4429
SERVER_ERROR = 4500

MESSAGES = Limit("socket-messages", count=100, seconds=20)
"""A player's, over all their sockets; an anonymous socket's own."""
ANONYMOUS_ADDRESS_MESSAGES = Limit("socket-messages-address", count=300, seconds=20)
"""All the anonymous sockets of one address together."""
CONNECTS = Limit("socket-connects", count=settings.CONNECTS_PER_MINUTE, seconds=60)
"""A player's connects, to any socket; each costs a whole picture."""
ADDRESS_CONNECTS = Limit(
    "socket-connects-address", count=settings.ADDRESS_CONNECTS_PER_MINUTE, seconds=60
)


def player_group(user_id: int) -> str:
    """Every socket of one player, whatever page it serves."""
    return f"player-{user_id}"


class GuardedConsumer(AsyncWebsocketConsumer):
    language: str = "ru"
    message_limit = MESSAGES

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.groups_joined: set[str] = set()
        self.closing = False
        self.flooded = False
        self.finished = False
        self.rate_key = ""
        self.accepted = False
        arrivals: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        reader = asyncio.ensure_future(self.read_arrivals(receive, arrivals))
        try:
            await super().__call__(scope, arrivals.get, send)
        finally:
            reader.cancel()
            await self.finish()

    async def read_arrivals(self, receive: Any, arrivals: asyncio.Queue[dict[str, Any]]) -> None:
        """Take each message from the server as it arrives and charge it to its sender."""
        while True:
            try:
                message = await receive()
            except Exception:
                logger.exception("reading a socket failed (%s)", self.context())
                message = {"type": "websocket.disconnect", "code": 1011}
            if message["type"] == "websocket.disconnect":
                self.closing = True
            elif message["type"] == "websocket.receive":
                if self.flooded or self.closing:
                    continue
                if not await self.within_budgets():
                    self.flooded = True
                    message = {"type": "socket.flooded"}
            await arrivals.put(message)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        # Channels' auth middleware has resolved the user before the consumer runs.
        self.rate_key = client_key(self.scope)
        broadcast.serve_from(asyncio.get_running_loop())
        self.address_key = address_key(self.scope)
        self.language = socket_language(self.scope)
        self.budgets = [(self.message_limit, self.rate_key)]
        if self.rate_key == self.address_key:
            self.budgets = [
                (self.message_limit, f"socket:{uuid.uuid4().hex}"),
                (ANONYMOUS_ADDRESS_MESSAGES, self.address_key),
            ]
        if not await self.may_connect():
            await self.accept()
            await self.close_saying(
                TOO_MANY_MESSAGES, _("Too many connections: wait a minute, then reload the page.")
            )
            return
        await super().websocket_connect(message)

    async def may_connect(self) -> bool:
        if self.rate_key != self.address_key and not await allow(CONNECTS, self.rate_key):
            return False
        return await allow(ADDRESS_CONNECTS, self.address_key)

    async def within_budgets(self) -> bool:
        """Charge one message to every budget this socket spends."""
        for limit, key in self.budgets:
            if not await allow(limit, key):
                return False
        return True

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own dispatch closes stale database connections before every handler: a
        trip to the database thread for every frame to every socket. Every database call of
        these sockets goes through `database_sync_to_async`, which does it on that thread."""
        handler = self.handler_for(message)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except StopConsumer:
            raise
        except Exception:
            metrics.FAILED_SOCKETS.labels(type(self).__name__).inc()
            place = await self.place()
            logger.exception(
                "%s failed on %s (%s; now %s)",
                type(self).__name__,
                message.get("type"),
                self.context(),
                failures.described(place),
                extra=place,
            )
            await self.finish()
            with contextlib.suppress(Exception):
                await self.close_saying(
                    SERVER_ERROR, _("Something went wrong on the server; reload the page.")
                )
            raise StopConsumer from None

    def handler_for(self, message: dict[str, Any]) -> Any:
        """The coroutine that takes a channel-layer message: the method its type names."""
        return getattr(self, get_handler_name(message), None)

    def context(self) -> str:
        """What the error log names besides the failure: overridden by each socket."""
        return f"client {self.rate_key}"

    async def place(self) -> failures.Place:
        """The table a socket serves, its game and the game's version, read once something
        failed."""
        table_id = getattr(self, "table_id", None)
        if table_id is None:
            return dict.fromkeys(failures.NAMES)
        return await database_sync_to_async(failures.of_table)(table_id)

    async def socket_flooded(self, message: dict[str, Any]) -> None:
        await self.close_saying(
            TOO_MANY_MESSAGES, _("Too many messages: wait a moment, then reload the page.")
        )

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        await super().accept(subprotocol=subprotocol, headers=headers)
        self.accepted = True
        metrics.SOCKETS.labels(type(self).__name__).inc()
        user = self.scope.get("user")
        if getattr(user, "is_authenticated", False):
            await self.join(player_group(user.pk))

    async def layer_resumed(self, event: dict[str, Any]) -> None:
        """Redis answers again after an outage and the socket is in its groups again
        (`games.live.layers`): a socket that shows what changes catches up here."""

    async def player_deactivated(self, event: dict[str, Any]) -> None:
        """The staff deactivated the socket's player: say so at once, and close."""
        with translation.override(self.language):
            told = _("The staff deactivated your account: %(reason)s") % {"reason": event["reason"]}
        await self.close_saying(NOT_ALLOWED, told)

    async def join(self, group: str) -> None:
        self.groups_joined.add(group)
        await self.channel_layer.group_add(group, self.channel_name)

    async def leave(self, group: str) -> None:
        self.groups_joined.discard(group)
        await self.channel_layer.group_discard(group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        self.closing = True
        await self.finish()

    async def finish(self) -> None:
        """Everything a socket must undo when it ends; runs once, however it ends."""
        if self.finished:
            return
        self.finished = True
        if self.accepted:
            metrics.SOCKETS.labels(type(self).__name__).dec()
        try:
            await self.release()
        finally:
            for group in list(self.groups_joined):
                await self.leave(group)

    async def release(self) -> None:
        """What a kind of socket undoes besides leaving its groups."""

    async def notice(self, message: str) -> None:
        with translation.override(self.language):
            await self.send(text_data=notices.render_notice(message))

    async def close_saying(self, code: int, message: StrOrPromise) -> None:
        """Say why (in the socket's language: `message` may be lazy), then close."""
        with translation.override(self.language):
            message = str(message)
        await self.notice(message)
        await self.close(code=code)

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        if self.closing:
            return
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        if self.closing:
            return
        self.closing = True
        await super().close(code=code, reason=reason)


def socket_language(scope: dict[str, Any]) -> str:
    """The language the page was served in: the cookie, the player's choice, the browser's."""
    codes = {code for code, _name in settings.LANGUAGES}
    chosen = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    if chosen in codes:
        return chosen
    user = scope.get("user")
    preferred = getattr(user, "language", "") if user is not None else ""
    if preferred in codes:
        return preferred
    headers = dict(scope.get("headers") or [])
    accepted = headers.get(b"accept-language", b"").decode("latin-1")
    for language, _quality in parse_accept_lang_header(accepted):
        try:
            return get_supported_language_variant(language)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
