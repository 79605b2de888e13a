"""After a commit: one small frame per chat change, rendered once per language.

A line goes to the table's public group, which every socket at the table is in; each
socket drops the lines of the players its reader has muted. A change of someone's
mutes goes to that player's own group, so each of their sockets redraws its lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chat import rendering
from games.live.broadcast import in_every_language, public_group, send

if TYPE_CHECKING:
    from chat.models import Message


def user_group(user_id: int) -> str:
    return f"chat-user-{user_id}"


def posted(message: Message) -> None:
    send(
        public_group(message.table_id),
        {
            "type": "chat.line",
            "author": message.author_id,
            "html": in_every_language(lambda: rendering.render_posted(message)),
        },
    )


def hidden(message: Message) -> None:
    send(
        public_group(message.table_id),
        {
            "type": "chat.line",
            "author": message.author_id,
            "html": in_every_language(lambda: rendering.render_line(message, oob=True)),
        },
    )


def mutes_changed(user_id: int) -> None:
    send(user_group(user_id), {"type": "chat.mutes"})
