"""What was said at the table, each line in its place among a finished game's moves: on the
history page, and in the replay's move log."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from chat import rendering
from chat.models import Message
from games.models import Game
from games.records.table_talk import TableTalk

Entry = dict[str, Any]


def said_in(game: Game, reader: Any) -> list[Message]:
    lines = Message.objects.filter(game=game).select_related("author")
    return list(rendering.visible_to(lines, reader).order_by("after_seq", "id"))


def merged(
    entries: Sequence[Entry],
    messages: Sequence[Message],
    line: Callable[[Message, Entry | None], Entry],
) -> list[Entry]:
    """`entries` (each with the "seq" of its event) with every message after the last
    entry whose event came before it was said."""
    pending = list(messages)
    out: list[Entry] = []
    before: Entry | None = None
    for entry in entries:
        while pending and pending[0].after_seq < entry["seq"]:
            out.append(line(pending.pop(0), before))
        out.append(entry)
        before = entry
    out += [line(message, before) for message in pending]
    return out


def among_moves(game: Game, moves: Sequence[Entry], reader: Any) -> list[Entry]:
    """The history page's log: each move as `{"text": ...}`, each chat line as the
    context of `chat/line.html`."""
    return merged(
        moves,
        said_in(game, reader),
        lambda message, _before: {**rendering.line_context(message), "tools": False},
    )


def in_replay(log: Sequence[Entry], game: Game, reader: Any) -> list[Entry]:
    """The replay's log (entries with "seq" and "step") with the chat lines as plain text,
    each at the step it was said in."""

    def line(message: Message, before: Entry | None) -> Entry:
        if message.hidden:
            text = _("hidden by the staff")
        else:
            reaction = rendering.line_context(message)["reaction"]
            text = reaction.words if reaction is not None else message.text
        return {
            "step": before["step"] if before is not None else 0,
            "seq": message.after_seq,
            "chat": True,
            "author": message.author.username,
            "text": text,
            "hidden": message.hidden,
        }

    return merged(log, said_in(game, reader), line)


class ChatTalk(TableTalk):
    """What was said at the table, as the chat kept it."""

    def among_moves(self, game: Game, moves: Sequence[Entry], reader: Any) -> list[Entry]:
        return among_moves(game, moves, reader)

    def in_replay(self, log: Sequence[Entry], game: Game, reader: Any) -> list[Entry]:
        return in_replay(log, game, reader)
