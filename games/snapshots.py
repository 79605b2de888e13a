"""What a connection may see when it (re)connects: the full picture for its audience."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from accounts import ledger
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
        last = table.games.order_by("-started_at").first()
        earlier = rendering.earlier_games(table_id, last.pk if last else None)
        log = (
            rendering.render_log(recent_events(last), game_infos(last), seat, earlier)
            if last
            else rendering.render_log([], None, seat)
        )
        return rendering.render_waiting(table, me, seats) + log
    engine = EngineGame.from_dict(row.state)
    players = list(row.players.select_related("player").order_by("seat"))
    infos = rendering.seat_infos(seats if len(seats) == len(players) else players)
    thinking = [
        int(position) for position in row.bot_moves.get("due", {}) if infos[int(position)].is_bot
    ]
    events = recent_events(row)
    me = next((s for s in seats if s.position == seat), None)
    context = rendering.game_context(
        table,
        row,
        engine,
        infos,
        seat,
        thinking,
        headline=rendering.headline(since_the_table_was_cleared(events), infos),
        balance=ledger.balance(me.player) if me is not None and me.player else None,
    )
    earlier = rendering.earlier_games(table_id, row.pk)
    return rendering.render_game(context) + rendering.render_log(events, infos, seat, earlier)


def recent_events(row: Game) -> list[dict[str, Any]]:
    return [event.data for event in row.events.order_by("-seq")[:LOG_LINES]][::-1]


def game_infos(row: Game) -> list[rendering.SeatInfo]:
    return rendering.seat_infos(row.players.select_related("player").order_by("seat"))


def since_the_table_was_cleared(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a player who watched the whole time last saw as news: this round, and the
    drawing that opened it."""
    cleared = [i for i, event in enumerate(events) if event["type"] in ("discard", "pick_up")]
    return events[cleared[-1] + 1 :] if cleared else events
