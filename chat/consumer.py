"""The chat's half of the table socket: lines in, lines out, the reader's mutes applied.

A part of `games.live.consumers.TableConsumer` (`games.live.parts`), which owns the
connection; nothing here touches a game, so a chat message never waits for a game's lock
nor delays a move.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import gettext as _

from chat import broadcast, protocol, rendering, services
from chat.protocol import ChatCommand
from games.live import ratelimit
from games.live.broadcast import in_language
from games.live.parts import SocketPart

# Lines and reactions together, per player (per address for anyone not logged in).
CHAT_LIMIT = ratelimit.Limit("chat", count=5, seconds=10)


class ChatPart(SocketPart):
    actions = protocol.ACTIONS
    events = ("chat.line", "chat.mutes")
    muted: set[int]

    @classmethod
    def parse(cls, data: dict[str, object]) -> ChatCommand:
        return protocol.command(data)

    @property
    def signed_in(self) -> bool:
        user = self.socket.user
        return user is not None and user.is_authenticated

    async def connected(self) -> str:
        """On (re)connect: the reader's mutes, their own group (left with the socket's other
        groups), and the recent lines to send with the snapshot."""
        if self.signed_in:
            await self.socket.join(broadcast.user_group(self.socket.user.pk))
        return await self.lines()

    async def lines(self) -> str:
        socket = self.socket
        with translation.override(socket.language):
            lines = await database_sync_to_async(rendering.render_lines)(
                socket.table_id, socket.user
            )
        self.muted = lines.muted
        return lines.html

    async def carry_out(self, command: ChatCommand) -> None:
        socket = self.socket
        try:
            if command.action == "chat":
                if not await ratelimit.allow(CHAT_LIMIT, ratelimit.client_key(socket.scope)):
                    await socket.notice(slow_down())
                    return
                await database_sync_to_async(services.post)(
                    socket.table_id, socket.user, text=command.text, reaction=command.reaction
                )
            elif command.action == "chat-mute":
                assert command.player is not None
                await database_sync_to_async(services.mute)(socket.user, command.player)
            elif command.action == "chat-unmute":
                assert command.player is not None
                await database_sync_to_async(services.unmute)(socket.user, command.player)
            else:
                assert command.message is not None
                await database_sync_to_async(services.hide)(
                    socket.user, command.message, command.reason, table_id=socket.table_id
                )
        except services.ChatRefused as refusal:
            await socket.notice(str(refusal))

    async def hear(self, event: dict[str, Any]) -> None:
        if event["type"] == "chat.mutes":
            await self.socket.send(text_data=await self.lines())
        elif event["author"] not in self.muted:
            await self.socket.send(text_data=in_language(event["html"], self.socket.language))


def slow_down() -> str:
    return _("Not so fast: at most %(count)s chat messages in %(seconds)s seconds.") % {
        "count": CHAT_LIMIT.count,
        "seconds": CHAT_LIMIT.seconds,
    }
