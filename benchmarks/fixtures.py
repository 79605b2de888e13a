"""Tables the benchmarks play at (Django must be set up first)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

EASY_BOTS = ("easy", "easy", "easy")


def table_with_three_bots(host: Any, name: str, levels: Sequence[str] = EASY_BOTS) -> Any:
    """A four-seat table with a stake of 10: its host and three bots of `levels`, in seat order."""
    from games.table import tables

    table = tables.create_table(
        host,
        name=name,
        stake=10,
        seats=4,
        move_time=30,
        bots_allowed=True,
        private=False,
    )
    for level in levels:
        tables.add_bot(table.pk, host, level)
    return table
