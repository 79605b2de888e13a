"""The rows both writers start from: a table locked for the transaction and its seats."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.errors import GameError
from games.models import Seat, Table


def locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise GameError(_("There is no such table.")) from None


def seats_of(table: Table) -> list[Seat]:
    return list(table.seat_set.select_related("player").order_by("position"))
