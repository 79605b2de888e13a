"""The chat's HTML: one line, the lines a reader sees at a table, and the whole panel.

Texts are plain: the templates escape them, and nothing a player writes is ever marked safe.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.template.loader import render_to_string

from accounts.models import User
from chat import mutes
from chat.models import MAX_LENGTH, Message
from chat.reactions import REACTIONS, shown
from games.models import Table
from games.rows import Reading, column, readings, table

PANEL_LINES = 50


def line_context(message: Message) -> dict[str, Any]:
    reaction = shown(message.text) if message.kind == Message.Kind.REACTION else None
    return {"message": message, "reaction": reaction, "tools": True}


def render_line(message: Message, *, oob: bool = False) -> str:
    return render_to_string("chat/line.html", {**line_context(message), "oob": oob})


def render_posted(message: Message) -> str:
    """A new line for the end of the panel, and a reaction's bubble by the sender's seat."""
    return render_to_string("chat/posted.html", line_context(message))


def visible_to(messages: QuerySet[Message], reader: Any) -> QuerySet[Message]:
    muted = mutes.muted_ids(reader)
    return messages.exclude(author__in=muted) if muted else messages


@cache
def recent_sql(vendor: str, muted: int) -> tuple[str, Reading]:
    """The statement of `recent` for a reader who muted `muted` authors, built once: every
    (re)connecting socket reads the lines, and building it through the ORM cost more than
    running it."""
    lines, authors = Reading.of(Message, "m"), readings()[3]
    author = f"m.{column(Message, 'author')}"
    unmuted = f" AND {author} NOT IN ({', '.join(['%s'] * muted)})" if muted else ""
    return (
        f"SELECT {lines.columns('m')}, {authors.columns('u')} FROM {table(Message)} m "
        f"JOIN {table(User)} u ON u.{column(User, 'id')} = {author} "
        f"WHERE m.{column(Message, 'table')} = %s{unmuted} "
        f"ORDER BY m.{column(Message, 'id')} DESC LIMIT %s"
    ), lines


def recent(at: Table | int, muted: set[int]) -> list[Message]:
    """The last lines of a table's chat, oldest first, each with its author, less those of
    the `muted` authors."""
    sql, lines = recent_sql(connection.vendor, len(muted))
    authors = readings()[3]
    table_id = at.pk if isinstance(at, Table) else at
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id, *sorted(muted), PANEL_LINES])
        found = cursor.fetchall()
    read = []
    for values in reversed(found):
        message = lines.row(values[: lines.width])
        message.author = authors.row(values[lines.width :])
        read.append(message)
    return read


def muted_players(reader: Any, muted: set[int]) -> list[Any]:
    """Whom the reader muted (their ids `muted`), by name: read only when there are some."""
    if not muted:
        return []
    return [mute.muted for mute in reader.chat_mutes.select_related("muted").order_by("muted")]


@dataclass(frozen=True)
class ReaderLines:
    html: str
    """What a socket sends on (re)connect and after its reader's mutes change."""
    muted: set[int]
    """The authors its reader muted, whose new lines the socket passes over."""


def render_lines(table_id: int, reader: Any) -> ReaderLines:
    muted = mutes.muted_ids(reader)
    html = render_to_string(
        "chat/lines.html",
        {
            "lines": [line_context(message) for message in recent(table_id, muted)],
            "muted": muted_players(reader, muted),
            "oob": True,
        },
    )
    return ReaderLines(html, muted)


def panel_context(table: Table, reader: Any, seat: int | None) -> dict[str, Any]:
    signed_in = reader is not None and reader.is_authenticated
    site_mute = mutes.site_mute_of(reader) if signed_in else None
    muted = mutes.muted_ids(reader)
    return {
        "lines": [line_context(message) for message in recent(table, muted)],
        "muted": muted_players(reader, muted),
        "reader": reader if signed_in else None,
        "staff": signed_in and reader.is_staff,
        "can_write": signed_in and mutes.may_write(table, seat) and site_mute is None,
        "site_mute": mutes.site_mute_notice(site_mute) if site_mute is not None else "",
        "spectator": seat is None,
        "reactions": [shown(code) for code in REACTIONS],
        "limit": MAX_LENGTH,
    }
