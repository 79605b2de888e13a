"""The table socket: a snapshot on connect, then each audience's HTML as it changes.

Incoming messages become calls to the writers (`games.play`, `games.tables`); the seat
always comes from the authenticated session, never from the message.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import get_supported_language_variant
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from chat.consumer import ChatMixin
from chat.protocol import ChatCommand
from games import broadcast, errors, play, presence, rendering, scheduler, snapshots, tables
from games.broadcast import in_language
from games.protocol import Command, ProtocolError, parse
from games.scene import Audience

RATE_LIMIT = 100
RATE_WINDOW = 20.0
POLICY_VIOLATION = 1008


class TableConsumer(ChatMixin, AsyncWebsocketConsumer):
    table_id: int
    seat: int | None
    language: str

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.seat = None
        self.recent: deque[float] = deque()
        self.language = socket_language(self.scope)
        invite = parse_qs(self.scope.get("query_string", b"").decode()).get("invite", [""])[0]
        access = await database_sync_to_async(snapshots.access)(self.table_id, self.user, invite)
        if not access.allowed:
            await self.close(code=4403)
            return
        self.seat = access.seat
        self.reported_at = float("-inf")
        if self.seat is not None and not self.user.language:
            await database_sync_to_async(remember_language)(self.user, self.language)
        await self.accept()
        await self.channel_layer.group_add(broadcast.public_group(self.table_id), self.channel_name)
        await self.channel_layer.group_add(self.audience_group(), self.channel_name)
        await self.send_snapshot(also=await self.join_chat())
        await self.report_in()
        scheduler.ensure_embedded()

    async def report_in(self) -> None:
        """Tell the table this player is here, at most every few seconds."""
        now = time.monotonic()
        if self.seat is None or now - self.reported_at < presence.REPORT_EVERY.total_seconds():
            return
        self.reported_at = now
        back = await database_sync_to_async(presence.report_in)(self.table_id, self.user.pk)
        if back is not None:
            await database_sync_to_async(broadcast.presence_changed)(self.table_id, back, True)

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "table_id"):
            return
        await self.leave_chat()
        if self.seat is not None:
            gone = await database_sync_to_async(presence.leave)(self.table_id, self.user.pk)
            if gone is not None:
                await database_sync_to_async(broadcast.presence_changed)(self.table_id, gone, False)
        await self.channel_layer.group_discard(
            broadcast.public_group(self.table_id), self.channel_name
        )
        await self.channel_layer.group_discard(self.audience_group(), self.channel_name)

    def audience_group(self) -> str:
        """Where this socket's pictures come: its seat's group, or its language's among
        the spectators."""
        return broadcast.audience_group(self.table_id, Audience(self.seat, self.language))

    async def send_snapshot(self, also: str = "") -> None:
        with translation.override(self.language):
            html = await database_sync_to_async(snapshots.render)(self.table_id, self.seat)
        await self.send(text_data=html + also)

    async def notice(self, message: str) -> None:
        with translation.override(self.language):
            await self.send(text_data=rendering.render_notice(message))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.over_rate_limit():
            await self.close(code=POLICY_VIOLATION)
            return
        with translation.override(self.language):
            try:
                command = parse(text_data if text_data is not None else None)
            except ProtocolError as problem:
                await self.notice(str(problem))
                return
            if isinstance(command, ChatCommand):
                await self.chat_command(command)
                return
            if command.action == "ping":
                await self.report_in()
                return
            if self.seat is None or self.user is None or not self.user.is_authenticated:
                await self.notice(_("You are watching this table: only its players can move."))
                return
            await self.report_in()
            await self.carry_out(command)

    async def carry_out(self, command: Command) -> None:
        try:
            if command.is_move:
                await database_sync_to_async(play.act_at_table)(self.table_id, self.user, command)
            else:
                await database_sync_to_async(tables.play_again)(self.table_id, self.user)
        except errors.StaleCommand as stale:
            await self.send_snapshot()
            await self.notice(str(stale))
        except errors.GameError as refusal:
            await self.notice(str(refusal))

    def over_rate_limit(self) -> bool:
        now = time.monotonic()
        self.recent.append(now)
        while self.recent and self.recent[0] < now - RATE_WINDOW:
            self.recent.popleft()
        return len(self.recent) > RATE_LIMIT

    async def table_html(self, event: dict[str, Any]) -> None:
        html = event["html"]
        if "*" in html:
            await self.send(text_data=html["*"])
        elif self.seat is None:
            await self.send(text_data=in_language(html, self.language))

    async def table_seating(self, event: dict[str, Any]) -> None:
        user_id = getattr(self.user, "pk", None)
        seat = event["seating"].get(str(user_id)) if user_id is not None else None
        if seat != self.seat:
            await self.channel_layer.group_discard(self.audience_group(), self.channel_name)
            self.seat = seat
            await self.channel_layer.group_add(self.audience_group(), self.channel_name)
            await self.send_snapshot()
            return
        if "html" in event and self.seat is None:
            await self.table_html(event)

    async def table_presence(self, event: dict[str, Any]) -> None:
        html = event["html"]
        await self.send(text_data=in_language(html, self.language))

    async def table_notice(self, event: dict[str, Any]) -> None:
        if event.get("user_id") == getattr(self.user, "pk", None):
            await self.send(text_data=event["html"])

    async def table_announce(self, event: dict[str, Any]) -> None:
        """For everyone at the table: a notice from the staff, the site's banners."""
        await self.send(text_data=in_language(event["html"], self.language))

    site_banners = table_announce


def remember_language(user: Any, language: str) -> None:
    """A seated player's live updates are rendered in their language: keep the page's."""
    get_user_model().objects.filter(pk=user.pk, language="").update(language=language)
    user.language = language


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


class LobbyConsumer(AsyncWebsocketConsumer):
    """Live rows of the lobby's table list."""

    async def connect(self) -> None:
        self.language = socket_language(self.scope)
        await self.accept()
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        scheduler.ensure_embedded()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.close(code=POLICY_VIOLATION)

    async def lobby_html(self, event: dict[str, Any]) -> None:
        html = event["html"]
        await self.send(text_data=in_language(html, self.language))

    site_banners = lobby_html
