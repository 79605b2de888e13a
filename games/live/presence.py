"""Who is at the table right now: a seat is online while its socket reports in.

Every seated socket reports in when it connects and every few seconds while it plays, so
the seat is read and marked in statements built once (`games.rows`), not through the ORM.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache

from django.db import connection
from django.utils import timezone

from games.models import Seat
from games.rows import column, prepared, readings, table
from games.table import standup

REPORT_EVERY = timedelta(seconds=10)


def report_in(table_id: int, user_id: int) -> int | None:
    """Mark the player's seat as seen now; the seat's position if it was offline before."""
    seat = seat_of(table_id, user_id)
    if seat is None:
        return None
    was_online = seat.online
    standup.came_back(seat)
    if was_online and timezone.now() - seat.last_seen < REPORT_EVERY:  # type: ignore[operator]
        return None
    mark_seen(seat.pk, timezone.now())
    return None if was_online else seat.position


def leave(table_id: int, user_id: int) -> int | None:
    """The socket closed: the seat shows offline until another socket of the player reports."""
    seat = seat_of(table_id, user_id)
    if seat is None:
        return None
    mark_seen(seat.pk, None)
    standup.went_offline(seat)
    return seat.position


@cache
def seat_sql(vendor: str) -> str:
    seats = readings()[2]
    return (
        f"SELECT {seats.columns('s')} FROM {table(Seat)} s "
        f"WHERE s.{column(Seat, 'table')} = %s AND s.{column(Seat, 'player')} = %s"
    )


def seat_of(table_id: int, user_id: int) -> Seat | None:
    """The player's seat at the table, if they have one."""
    with connection.cursor() as cursor:
        cursor.execute(seat_sql(connection.vendor), [table_id, user_id])
        found = cursor.fetchone()
    return readings()[2].row(found) if found is not None else None


@cache
def seen_sql(vendor: str) -> str:
    return (
        f"UPDATE {table(Seat)} SET {column(Seat, 'last_seen')} = %s WHERE {column(Seat, 'id')} = %s"
    )


def mark_seen(seat_id: int, moment: datetime | None) -> None:
    """When the seat's player was last seen: `moment`, or None once they left."""
    with connection.cursor() as cursor:
        cursor.execute(seen_sql(connection.vendor), [prepared(Seat, "last_seen", moment), seat_id])
