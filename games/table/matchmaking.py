"""Quick play: a seat where people wait at the wanted stake, else at an empty table at that
stake, else at a new table with a bot; a player seated elsewhere is told, never moved."""

from __future__ import annotations

from django.db.models import Case, Count, F, Q, QuerySet, When
from django.utils.translation import gettext as _

from accounts.models import User
from games import errors
from games.models import BotLevel, Seat, Table
from games.table import tables


def quick_play(user: User, stake: int) -> Table:
    current = Seat.objects.filter(player=user).select_related("table").first()
    if current is not None:
        raise tables.seated_elsewhere(current)
    for table in open_tables(stake):
        try:
            tables.join(table.pk, user)
        except errors.SeatedElsewhere:
            raise
        except errors.GameError:
            continue
        return table
    table = tables.create_table(
        user,
        name=_("Quick game of %(name)s") % {"name": user.username},
        stake=stake,
        seats=2,
        move_time=30,
        bots_allowed=True,
        private=False,
    )
    tables.add_bot(table.pk, user, BotLevel.EASY)
    return table


def open_tables(stake: int) -> QuerySet[Table]:
    """Public open tables at the stake with a free seat: first those where people wait
    (the nearest to full first), then the empty ones, oldest first."""
    return (
        Table.objects.filter(status=Table.Status.OPEN, private=False, stake=stake)
        .annotate(
            taken=Count("seat_set"),
            people=Count("seat_set", filter=Q(seat_set__player__isnull=False)),
        )
        .filter(taken__lt=F("seats"))
        .annotate(waiting=Case(When(people__gt=0, then=0), default=1))
        .order_by("waiting", F("seats") - F("taken"), "created_at")
    )
