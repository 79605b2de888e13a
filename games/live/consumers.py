"""The table socket: a snapshot on connect, then each audience's HTML as it changes.

Incoming messages become calls to the writers (`games.table.play`, `games.table.tables`); the seat
always comes from the authenticated session, never from the message.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import errors
from games.engine import Action
from games.live import broadcast, failures, metrics, owners, parts, presence, snapshots
from games.live.broadcast import in_language
from games.live.frames import (
    OwnerAnswer,
    TableAnnounce,
    TableHtml,
    TableNotice,
    TablePresence,
    TableSeating,
)
from games.live.handshakes import handshakes
from games.live.outages import UNREACHABLE
from games.live.protocol import Command, ForPart, ProtocolError, parse
from games.live.sockets import NOT_ALLOWED, UNEXPECTED_MESSAGE, GuardedConsumer, socket_language
from games.picture.notices import render_notice
from games.picture.scene import Audience
from games.table import play, tables

logger = logging.getLogger(__name__)

GAP_WAIT_SECONDS = 0.5
"""How long changes that came early wait for the ones before them."""


class TableConsumer(GuardedConsumer):
    table_id: int
    seat: int | None

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.seat = None
        self.shown: int | None = None
        self.shown_game: int | None = None
        self.waiting: dict[int, tuple[str, int | None]] = {}
        """Changes that arrived before the version they apply to, by that version."""
        self.synced: tuple[int | None, int | None] | None = None
        """The game and version the last ``sync`` was answered at."""
        self.owner: tuple[int, str] | None = None
        """The game shown and the group its owner takes moves in, as its frames name it."""
        self.forwarded: dict[int, Command] = {}
        """Moves sent to the owner and not answered yet, by ticket."""
        self.tickets = itertools.count()
        self.language = socket_language(self.scope)
        invite = parse_qs(self.scope.get("query_string", b"").decode()).get("invite", [""])[0]
        # Accepted before anything waits for the database: a server that does not accept a
        # handshake within seconds refuses it, and a refusal here says why.
        await self.accept()
        access = await database_sync_to_async(snapshots.access)(self.table_id, self.user, invite)
        if access.refusal is not None:
            await self.close_saying(NOT_ALLOWED, access.refusal)
            return
        self.seat = access.seat
        self.parts = {part: part(self) for part in parts.registered()}
        self.hearing = {event: part.hear for part in self.parts.values() for event in part.events}
        self.reported_at = float("-inf")
        if self.seat is not None and not self.user.language:
            await database_sync_to_async(remember_language)(self.user, self.language)
        await self.join(broadcast.public_group(self.table_id))
        await self.join(self.audience_group())
        async with handshakes.turn(seated=self.seat is not None):
            await self.send_snapshot(also=await self.parts_connected())
        await self.report_in()

    async def parts_connected(self) -> str:
        """What the other apps' parts of this socket send with its first picture."""
        return "".join([await part.connected() for part in self.parts.values()])

    def handler_for(self, message: dict[str, Any]) -> Any:
        """The part that hears an event of this type, else this socket's own method."""
        heard_by = getattr(self, "hearing", {}).get(message["type"])
        return heard_by if heard_by is not None else super().handler_for(message)

    async def report_in(self) -> None:
        """Tell the table this player is here, at most every few seconds."""
        now = time.monotonic()
        if self.seat is None or now - self.reported_at < presence.REPORT_EVERY.total_seconds():
            return
        self.reported_at = now
        back = await database_sync_to_async(presence.report_in)(self.table_id, self.user.pk)
        if back is not None:
            await database_sync_to_async(broadcast.presence_changed)(self.table_id, back, True)

    async def release(self) -> None:
        """The seat shows offline once the player's last socket is gone."""
        if getattr(self, "seat", None) is None:
            return
        gone = await database_sync_to_async(presence.leave)(self.table_id, self.user.pk)
        if gone is not None:
            await database_sync_to_async(broadcast.presence_changed)(self.table_id, gone, False)

    def context(self) -> str:
        user = getattr(getattr(self, "user", None), "pk", None)
        return (
            f"table {getattr(self, 'table_id', '?')}, seat {getattr(self, 'seat', None)}, "
            f"game {getattr(self, 'shown_game', None)}, "
            f"version {getattr(self, 'shown', None)}, user {user}"
        )

    def audience_group(self) -> str:
        """Where this socket's pictures come: its seat's group, or its language's among
        the spectators."""
        return broadcast.audience_group(self.table_id, Audience(self.seat, self.language))

    async def show(self, html: str, game: int | None, version: int | None) -> None:
        """Send a frame of the game, remembering which version the player now sees."""
        self.shown_game, self.shown = game, version
        await self.send(text_data=html)

    async def send_snapshot(self, also: str = "") -> None:
        with translation.override(self.language):
            snapshot = await database_sync_to_async(snapshots.render)(self.table_id, self.seat)
        await self.show(snapshot.html + also, snapshot.game, snapshot.version)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        with translation.override(self.language):
            try:
                command = parse(text_data if text_data is not None else None)
            except ProtocolError as problem:
                await self.notice(str(problem))
                return
            if isinstance(command, ForPart):
                await self.parts[command.part].carry_out(command.command)
                return
            if command.action == "ping":
                await self.report_in()
                return
            if command.action == "sync":
                await self.sync()
                return
            if self.seat is None or self.user is None or not self.user.is_authenticated:
                await self.notice(_("You are watching this table: only its players can move."))
                return
            await self.report_in()
            await self.carry_out(command, text_data or "")

    async def sync(self) -> None:
        """The whole picture, once per version this socket shows; a repeat is answered short."""
        if self.synced == (self.shown_game, self.shown):
            await self.send(
                text_data=render_notice(_("This table is already current."), level="info")
            )
            return
        await self.send_snapshot()
        self.synced = (self.shown_game, self.shown)

    async def carry_out(self, command: Command, text: str) -> None:
        if command.is_move and (self.shown is None or (command.version or 0) > self.shown):
            # A command names a version this socket has shown, never a later one.
            await self.send_snapshot()
            await self.notice(_("That move does not match the game you are playing."))
            return
        if command.is_move and await self.forward(command, text):
            return
        await self.carry_out_here(command)

    async def forward(self, command: Command, text: str) -> bool:
        """Send a move to the owner of the game shown (`games.live.owners`), if a frame named
        one; whether it was sent. Unanswered, it is carried out here after a while."""
        if self.owner is None or self.owner[0] != self.shown_game:
            return False
        game, group = self.owner
        ticket = next(self.tickets)
        move = owners.move_for(ticket, self.channel_name, self.user.pk, game, text, self.language)
        try:
            await self.channel_layer.group_send(group, move)
        except UNREACHABLE:
            return False
        metrics.OWNER_MOVES.labels("forwarded").inc()
        self.forwarded[ticket] = command
        asyncio.get_running_loop().call_later(
            owners.TAKE_BACK_SECONDS, lambda: asyncio.ensure_future(self.take_back(ticket))
        )
        return True

    async def owner_answer(self, event: OwnerAnswer) -> None:
        if self.forwarded.pop(event["ticket"], None) is not None and event["refusal"]:
            await self.notice(event["refusal"])

    async def take_back(self, ticket: int) -> None:
        """The owner never answered a move: carry it out here, and the next ones too until
        a frame names an owner again."""
        command = self.forwarded.pop(ticket, None)
        if command is None or self.closing:
            return
        metrics.OWNER_MOVES.labels("taken_back").inc()
        self.owner = None
        with translation.override(self.language):
            try:
                await self.carry_out_here(command)
            except Exception:
                logger.exception("a move its owner never answered failed (%s)", self.context())

    async def carry_out_here(self, command: Command) -> None:
        try:
            if command.is_move:
                await database_sync_to_async(act_gathered)(
                    self.user, command.to_engine(), command.version, self.shown_game
                )
            else:
                await database_sync_to_async(tables.play_again)(self.table_id, self.user)
        except errors.GameError as refusal:
            # A move made on a picture the game has left behind (StaleCommand) is refused
            # like any other: the changes since are already on their way to this page.
            await self.notice(str(refusal))

    async def table_html(self, event: TableHtml) -> None:
        html = event["html"]
        if "*" in html:
            frame = html["*"]
        elif self.seat is None:
            frame = in_language(html, self.language)
        else:
            return
        if event.get("piece"):
            if self.shown_game is None:
                await self.send(text_data=frame)
            return
        game, version, base = event["game"], event["version"], event["base"]
        owner = event.get("owner")
        if game is not None and owner:
            self.owner = (game, owner)
        if base is None or (game, base) == (self.shown_game, self.shown):
            await self.show(frame, game, version)
            await self.show_waiting()
        elif game == self.shown_game and self.shown is not None and base > self.shown:
            # Two writers of one game (a move and the scheduler) can commit close together
            # and their changes arrive out of order: hold the later one for the earlier.
            self.waiting[base] = (frame, version)
            if len(self.waiting) == 1:
                asyncio.get_running_loop().call_later(
                    GAP_WAIT_SECONDS, lambda: asyncio.ensure_future(self.gap_timed_out(game))
                )
        elif game != self.shown_game or self.shown is None or (version or 0) > self.shown:
            await self.send_whole_picture()

    async def show_waiting(self) -> None:
        """Changes held for the version just shown, in order."""
        while self.shown in self.waiting:
            frame, version = self.waiting.pop(self.shown)
            await self.show(frame, self.shown_game, version)
        if self.shown is not None:
            self.waiting = {base: held for base, held in self.waiting.items() if base > self.shown}

    async def gap_timed_out(self, game: int | None) -> None:
        """The changes before those held never came: the whole picture instead."""
        if not self.waiting or game != self.shown_game or self.closing:
            return
        try:
            await self.send_whole_picture()
        except Exception:
            logger.exception("sending the whole picture after a gap failed (%s)", self.context())

    async def layer_resumed(self, event: dict[str, Any]) -> None:
        """What changed during a Redis outage never came: the whole picture, unless the
        page still shows the table's latest version."""
        place = await database_sync_to_async(failures.of_table)(self.table_id)
        if (place["game"], place["version"]) != (self.shown_game, self.shown):
            await self.send_whole_picture()

    async def send_whole_picture(self) -> None:
        metrics.WHOLE_PICTURES.inc()
        self.waiting = {}
        await self.send_snapshot()

    async def table_seating(self, event: TableSeating) -> None:
        user_id = getattr(self.user, "pk", None)
        seat = event["seating"].get(str(user_id)) if user_id is not None else None
        if seat != self.seat:
            await self.leave(self.audience_group())
            self.seat = seat
            await self.join(self.audience_group())
            await self.send_snapshot()
            await self.report_in()

    async def table_presence(self, event: TablePresence) -> None:
        html = event["html"]
        await self.send(text_data=in_language(html, self.language))

    async def table_notice(self, event: TableNotice) -> None:
        if event["user_id"] == getattr(self.user, "pk", None):
            await self.send(text_data=event["html"])

    async def table_announce(self, event: TableAnnounce) -> None:
        """For everyone at the table: a notice from the staff, the site's banners."""
        await self.send(text_data=in_language(event["html"], self.language))

    site_banners = table_announce


def act_gathered(user: Any, action: Action, version: int | None, game_id: int | None) -> None:
    """A move carried out on this server: what it sends (its frames, a wake-up for the
    schedulers) is handed to the event loop at once, in order (`broadcast.gathered`)."""
    with broadcast.gathered():
        play.act_at_table(user, action, version, game_id)


def remember_language(user: Any, language: str) -> None:
    """A seated player's live updates are rendered in their language: keep the page's."""
    get_user_model().objects.filter(pk=user.pk, language="").update(language=language)
    user.language = language


class LobbyConsumer(GuardedConsumer):
    """Live rows of the lobby's table list; it only listens."""

    async def connect(self) -> None:
        self.language = socket_language(self.scope)
        await self.accept()
        await self.join(broadcast.LOBBY_GROUP)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.close_saying(UNEXPECTED_MESSAGE, gettext_lazy("The lobby takes no messages."))

    async def lobby_html(self, event: dict[str, Any]) -> None:
        html = event["html"]
        await self.send(text_data=in_language(html, self.language))

    site_banners = lobby_html
