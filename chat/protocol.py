"""The chat's messages on the table socket, checked for shape before anything acts on them.

`{"action": "chat", "text": "..."}` says something, `{"action": "chat", "reaction": "thanks"}`
sends a quick reaction, `chat-mute` / `chat-unmute` name a `player` (a user id), and the
staff's `chat-hide` names a `message` and a `reason`. None of them is ever a game action.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from chat.reactions import REACTIONS
from games.live.protocol import ProtocolError

ACTIONS = ("chat", "chat-mute", "chat-unmute", "chat-hide")


class ChatProtocolError(ProtocolError):
    """A chat message that cannot be understood; the text says what is wrong with it."""


@dataclass(frozen=True)
class ChatCommand:
    action: str
    text: str = ""
    reaction: str = ""
    player: int | None = None
    message: int | None = None
    reason: str = ""


def command(data: dict[str, object]) -> ChatCommand:
    action = str(data["action"])
    if action == "chat":
        reaction = data.get("reaction")
        if reaction not in (None, ""):
            if not isinstance(reaction, str) or reaction not in REACTIONS:
                raise ChatProtocolError(_("There is no such quick reaction."))
            return ChatCommand(action, reaction=reaction)
        return ChatCommand(action, text=text_field(data.get("text")))
    if action == "chat-hide":
        return ChatCommand(
            action, message=id_field(data.get("message")), reason=text_field(data.get("reason"))
        )
    return ChatCommand(action, player=id_field(data.get("player")))


def text_field(value: object) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ChatProtocolError(_("A chat message must be text."))
    return value


def id_field(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ChatProtocolError(_("The message does not say whom or what it is about."))
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise ChatProtocolError(_("The message does not say whom or what it is about."))
    return int(text)
