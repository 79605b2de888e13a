"""What the staff do to tables and games, through the same row locks as every other change."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import GameError
from games.models import BotLevel, Game, Seat, Table
from games.table import play
from games.table.committed import after_commit_table_changed, after_commit_unseated
from games.table.game_rows import locked_table
from games.table.tables import arm_start


def stop(table_id: int, reason: str) -> Game | None:
    """Stop the running game with every stake returned, or call off a game about to start
    (no stake was taken yet). Returns the stopped game, if one was running."""
    game_id = play.running_game_id(table_id)
    if game_id is not None:
        play.abort(game_id, reason=reason)
        return Game.objects.get(pk=game_id)
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.OPEN or table.starts_at is None:
            raise GameError(_("No game is running or about to start at this table."))
        table.starts_at = None
        table.save(update_fields=["starts_at"])
        Seat.objects.filter(table=table, player__isnull=False).update(ready=False)
        after_commit_table_changed(table.pk)
    return None


def unseat(table_id: int, user_id: int, reason: str) -> Seat:
    """Take a person off a table. Between games the seat is freed; during a game the
    autopilot plays the seat to the end and the player cannot come back to it."""
    with transaction.atomic():
        table = locked_table(table_id)
        seat = Seat.objects.filter(table=table, player_id=user_id).first()
        if seat is None:
            raise GameError(_("That player does not sit at this table."))
        game_id = play.running_game_id(table.pk)
        if game_id is not None:
            seat.player, seat.bot_level = None, BotLevel.EASY
            seat.left, seat.away, seat.ready = True, False, True
            seat.save(update_fields=["player", "bot_level", "left", "away", "ready"])
            play.schedule_autopilot_now(game_id)
        else:
            seat.delete()
            remaining = table.seats_in_order()
            if all(other.is_bot for other in remaining):
                Seat.objects.filter(table=table).delete()
                remaining = []
            arm_start(table, remaining)
        after_commit_table_changed(table.pk)
        after_commit_unseated(table.pk, user_id, reason)
    return seat


def rearm(table_ids: list[int] | None = None) -> None:
    """Let waiting tables start again once the staff lift a pause or a lock."""
    query = Table.objects.filter(status=Table.Status.OPEN, seat_set__isnull=False).distinct()
    if table_ids is not None:
        query = query.filter(pk__in=table_ids)
    for table_id in query.values_list("pk", flat=True):
        with transaction.atomic():
            table = locked_table(table_id)
            arm_start(table, table.seats_in_order())
            after_commit_table_changed(table.pk)
