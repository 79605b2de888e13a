"""What a connection may see when it (re)connects: the full picture for its audience."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string

from games import rendering
from games.engine import Game as EngineGame
from games.models import Game, Seat, Table

LOG_LINES = 60


@dataclass(frozen=True)
class Access:
    allowed: bool
    seat: int | None = None


def access(table_id: int, user: Any, invite: str = "") -> Access:
    table = Table.objects.filter(pk=table_id).exclude(status=Table.Status.CLOSED).first()
    if table is None:
        return Access(False)
    if user is not None and user.is_authenticated:
        seat = Seat.objects.filter(table=table, player=user).values_list("position", flat=True)
        position = seat.first()
        if position is not None:
            return Access(True, position)
    if table.private and invite != table.invite_code:
        return Access(False)
    return Access(True)


def render(table_id: int, seat: int | None) -> str:
    table = Table.objects.get(pk=table_id)
    seats = list(table.seat_set.select_related("player").order_by("position"))
    row = table.games.filter(status=Game.Status.RUNNING).first()
    if row is None:
        me = next((s for s in seats if s.position == seat), None)
        return rendering.render_waiting(table, me, seats) + render_log(table, None, seat)
    engine = EngineGame.from_dict(row.state)
    players = list(row.players.select_related("player").order_by("seat"))
    infos = rendering.seat_infos(seats if len(seats) == len(players) else players)
    thinking = [int(position) for position in row.bot_moves.get("due", {})
                if infos[int(position)].is_bot]
    context = rendering.game_context(table, row, engine, infos, seat, thinking)
    return rendering.render_game(context) + render_log(table, row, seat, infos)


def render_log(
    table: Table, row: Game | None, reader: int | None,
    infos: list[rendering.SeatInfo] | None = None,
) -> str:
    row = row or table.games.order_by("-started_at").first()
    lines: list[str] = []
    if row is not None:
        if infos is None:
            players = list(row.players.select_related("player").order_by("seat"))
            infos = rendering.seat_infos(players)
        events = [e.data for e in row.events.order_by("-seq")[:LOG_LINES]][::-1]
        lines = rendering.log_entries(events, infos, reader)
    return render_to_string("games/fragments/log.html", {"lines": lines})
