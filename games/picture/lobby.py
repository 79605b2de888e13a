"""A table's row in the lobby's list, as it is sent live when the table changes."""

from __future__ import annotations

from collections.abc import Sequence

from django.template.loader import render_to_string

from games import gates
from games.models import Seat, Table


def render_lobby_row(table: Table, seats: Sequence[Seat]) -> str:
    return render_to_string(
        "games/fragments/lobby_row.html",
        {
            "table": table,
            "taken": len(seats),
            "oob": True,
            "locked_ids": gates.gate().locked_tables() & {table.pk},
        },
    )
