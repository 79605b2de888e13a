"""After a commit: render each audience's HTML once and send it to its group.

Audiences: the spectators of a table (rendered once per site language, since each
socket shows its own language) and each seated person (rendered in their language).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from accounts import ledger
from games import clock, rendering
from games.autopilot import BotSchedule
from games.engine import Game as EngineGame
from games.models import Game, Seat, Table

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
SCHEDULER_GROUP = "scheduler"


def public_group(table_id: int) -> str:
    return f"table-{table_id}"


def seat_group(table_id: int, position: int) -> str:
    return f"table-{table_id}-seat-{position}"


Message = tuple[str, dict[str, Any]]


def send_all(messages: list[Message]) -> None:
    """Deliver messages to their groups, in order, in one trip to the event loop."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def deliver() -> None:
        for group, message in messages:
            try:
                await layer.group_send(group, message)
            except Exception:
                logger.exception("could not send to group %s", group)

    async_to_sync(deliver)()


def send(group: str, message: dict[str, Any]) -> None:
    send_all([(group, message)])


def wake_scheduler() -> None:
    send(SCHEDULER_GROUP, {"type": "scheduler.wake", "at": clock.now()})


def in_every_language(render: Callable[[], str]) -> dict[str, str]:
    rendered = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            rendered[code] = render()
    return rendered


def seat_language(seat: Seat) -> str:
    return getattr(seat.player, "language", "") or settings.LANGUAGE_CODE


def game_changed(
    row: Game,
    engine: EngineGame,
    seated: list[Seat],
    schedule: BotSchedule,
    events: list[dict[str, Any]],
) -> None:
    table = row.table
    seats = rendering.seat_infos(seated)
    thinking = [seat for seat in schedule.due if seated[seat].is_bot]
    running = row.status == Game.Status.RUNNING

    just_dealt = row.version == 1
    balances = {
        seat.position: ledger.balance(seat.player)
        for seat in seated
        if just_dealt and seat.player is not None
    }

    earlier = rendering.earlier_games(table.pk, row.pk) if just_dealt else []

    def render_for(audience: int | None) -> str:
        if running:
            context = rendering.game_context(
                table,
                row,
                engine,
                seats,
                audience,
                thinking,
                headline=rendering.headline(events, seats),
                balance=balances.get(audience) if audience is not None else None,
            )
            html = rendering.render_game(context)
        else:
            html = rendering.render_waiting(table, None if audience is None else seated[audience])
        if just_dealt:
            return html + rendering.render_log(events, seats, audience, earlier)
        return html + rendering.render_log_append(events, seats, audience)

    outbox: list[Message] = [
        (
            public_group(table.pk),
            {
                "type": "table.html",
                "html": in_every_language(lambda: render_for(None)),
                "version": row.version,
            },
        )
    ]
    for seat in seated:
        if seat.is_bot:
            continue
        with translation.override(seat_language(seat)):
            html = render_for(seat.position)
        outbox.append(
            (
                seat_group(table.pk, seat.position),
                {
                    "type": "table.html",
                    "html": {"*": html},
                    "version": row.version,
                },
            )
        )
    send_all(outbox)


def table_changed(table_id: int) -> None:
    """Seats or status changed: the lobby row, the seating and the waiting room."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    seats = list(table.seat_set.select_related("player").order_by("position"))
    outbox: list[Message] = []
    if not table.private:
        outbox.append(
            (
                LOBBY_GROUP,
                {
                    "type": "lobby.html",
                    "html": in_every_language(lambda: rendering.render_lobby_row(table, seats)),
                },
            )
        )
    seating = {str(s.player_id): s.position for s in seats if s.player_id is not None}
    message: dict[str, Any] = {"type": "table.seating", "seating": seating}
    outbox.append((public_group(table_id), message))
    if table.status != Table.Status.PLAYING:
        message["html"] = in_every_language(lambda: rendering.render_waiting(table, None, seats))
        for seat in seats:
            if seat.player_id is None:
                continue
            with translation.override(seat_language(seat)):
                html = rendering.render_waiting(table, seat, seats)
            outbox.append(
                (
                    seat_group(table_id, seat.position),
                    {
                        "type": "table.html",
                        "html": {"*": html},
                        "version": None,
                    },
                )
            )
    send_all(outbox)


def presence_changed(table_id: int, position: int, online: bool) -> None:
    send(
        public_group(table_id),
        {
            "type": "table.presence",
            "html": in_every_language(lambda: rendering.render_presence(position, online)),
        },
    )


def unseated(table_id: int, user_id: int, reason: str) -> None:
    send(
        public_group(table_id),
        {
            "type": "table.notice",
            "user_id": user_id,
            "html": rendering.render_notice(reason),
        },
    )
