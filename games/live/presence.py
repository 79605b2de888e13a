"""Who is at the table right now: a seat is online while its socket reports in."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import Seat
from games.table import standup

REPORT_EVERY = timedelta(seconds=10)


def report_in(table_id: int, user_id: int) -> int | None:
    """Mark the player's seat as seen now; the seat's position if it was offline before."""
    seat = Seat.objects.filter(table_id=table_id, player_id=user_id).first()
    if seat is None:
        return None
    was_online = seat.online
    standup.came_back(seat)
    if was_online and timezone.now() - seat.last_seen < REPORT_EVERY:  # type: ignore[operator]
        return None
    Seat.objects.filter(pk=seat.pk).update(last_seen=timezone.now())
    return None if was_online else seat.position


def leave(table_id: int, user_id: int) -> int | None:
    """The socket closed: the seat shows offline until another socket of the player reports."""
    seat = Seat.objects.filter(table_id=table_id, player_id=user_id).select_related("table").first()
    if seat is None:
        return None
    Seat.objects.filter(pk=seat.pk).update(last_seen=None)
    standup.went_offline(seat)
    return seat.position
