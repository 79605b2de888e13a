"""Between games, a seat is kept only for a player who is there.

After a game, a player who is offline or away keeps the seat for a short grace; so does a
player whose last socket closes while the table waits. Coming back (or pressing "Play
again") keeps the seat; otherwise the scheduler stands them up, so the table can fill
and start again. The deadline is data on the seat (`release_at`), like every other.
"""

from __future__ import annotations

from datetime import timedelta

from games import clock
from games.models import Seat, Table
from games.table.committed import after_commit_deadline

GRACE = timedelta(seconds=45)


def after_the_game(table: Table) -> None:
    """The game just ended: start the grace of everyone who is not at the table."""
    release_at = clock.to_datetime(clock.now()) + GRACE
    for seat in Seat.objects.filter(table=table, player__isnull=False, left=False):
        if seat.away or not seat.online:
            Seat.objects.filter(pk=seat.pk).update(release_at=release_at)
    after_commit_deadline(clock.to_seconds(release_at))


def went_offline(seat: Seat) -> None:
    """The player's socket closed while the table waits between games."""
    if seat.table.status == Table.Status.OPEN and seat.release_at is None:
        release_at = clock.to_datetime(clock.now()) + GRACE
        Seat.objects.filter(pk=seat.pk).update(release_at=release_at)
        after_commit_deadline(clock.to_seconds(release_at))


def came_back(seat: Seat) -> None:
    """A socket of the player reported in: an offline player keeps the seat (an away one
    keeps it by pressing "Play again")."""
    if seat.release_at is not None and not seat.away:
        Seat.objects.filter(pk=seat.pk).update(release_at=None)


def due(now: float) -> list[tuple[int, float]]:
    """Each seat whose grace has run out, with that moment, earliest first."""
    seats = Seat.objects.filter(
        release_at__lte=clock.to_datetime(now), table__status=Table.Status.OPEN
    )
    return [
        (pk, clock.to_seconds(at))
        for pk, at in seats.order_by("release_at").values_list("pk", "release_at")
        if at is not None
    ]
