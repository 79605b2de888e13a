"""The chat's half of the table socket: lines in, lines out, the reader's mutes applied.

Mixed into `games.live.consumers.TableConsumer`, which owns the connection; nothing here
touches a game, so a chat message never waits for a game's lock nor delays a move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import gettext as _

from chat import broadcast, rendering, services
from chat.protocol import ChatCommand
from games.live import ratelimit
from games.live.broadcast import in_language

# Lines and reactions together, per player (per address for anyone not logged in).
CHAT_LIMIT = ratelimit.Limit("chat", count=5, seconds=10)


class ChatMixin:
    table_id: int
    scope: dict[str, Any]
    user: Any
    language: str
    chat_muted: set[int]

    if TYPE_CHECKING:

        async def send(
            self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
        ) -> None: ...

        async def notice(self, message: str) -> None: ...

        async def join(self, group: str) -> None: ...

    @property
    def signed_in(self) -> bool:
        return self.user is not None and self.user.is_authenticated

    async def join_chat(self) -> str:
        """On (re)connect: the reader's mutes, their own group (left with the socket's other
        groups), and the recent lines to send with the snapshot."""
        if self.signed_in:
            await self.join(broadcast.user_group(self.user.pk))
        return await self.chat_lines()

    async def chat_lines(self) -> str:
        self.chat_muted = await database_sync_to_async(services.muted_ids)(self.user)
        with translation.override(self.language):
            return await database_sync_to_async(rendering.render_lines)(self.table_id, self.user)

    async def chat_command(self, command: ChatCommand) -> None:
        try:
            if command.action == "chat":
                if not await ratelimit.allow(CHAT_LIMIT, ratelimit.client_key(self.scope)):
                    await self.notice(slow_down())
                    return
                await database_sync_to_async(services.post)(
                    self.table_id, self.user, text=command.text, reaction=command.reaction
                )
            elif command.action == "chat-mute":
                assert command.player is not None
                await database_sync_to_async(services.mute)(self.user, command.player)
            elif command.action == "chat-unmute":
                assert command.player is not None
                await database_sync_to_async(services.unmute)(self.user, command.player)
            else:
                assert command.message is not None
                await database_sync_to_async(services.hide)(
                    self.user, command.message, command.reason, table_id=self.table_id
                )
        except services.ChatRefused as refusal:
            await self.notice(str(refusal))

    async def chat_line(self, event: dict[str, Any]) -> None:
        if event["author"] in self.chat_muted:
            return
        await self.send(text_data=in_language(event["html"], self.language))

    async def chat_mutes(self, event: dict[str, Any]) -> None:
        await self.send(text_data=await self.chat_lines())


def slow_down() -> str:
    return _("Not so fast: at most %(count)s chat messages in %(seconds)s seconds.") % {
        "count": CHAT_LIMIT.count,
        "seconds": CHAT_LIMIT.seconds,
    }
