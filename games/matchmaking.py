"""Quick play: a seat at a waiting table with the wanted stake, or a new table of bots."""

from __future__ import annotations

from django.db.models import Count, F
from django.utils.translation import gettext as _

from accounts.models import User
from games import errors, tables
from games.models import Seat, Table


def quick_play(user: User, stake: int) -> Table:
    current = Seat.objects.filter(player=user).select_related("table").first()
    if current is not None:
        raise tables.seated_elsewhere(current)
    waiting = (
        Table.objects.filter(status=Table.Status.OPEN, private=False, stake=stake)
        .annotate(taken=Count("seat_set"))
        .filter(taken__lt=F("seats"), taken__gt=0)
        .order_by("created_at")
    )
    for table in waiting:
        try:
            tables.join(table.pk, user)
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
    tables.add_bot(table.pk, user, "easy")
    return table
