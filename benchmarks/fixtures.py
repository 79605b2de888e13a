"""Tables the benchmarks play at (Django must be set up first)."""

from __future__ import annotations

from typing import Any


def table_with_three_bots(host: Any, name: str) -> Any:
    """A four-seat table with a stake of 10: its host and three easy bots."""
    from games import tables

    table = tables.create_table(
        host,
        name=name,
        stake=10,
        seats=4,
        move_time=30,
        bots_allowed=True,
        private=False,
    )
    for _ in range(3):
        tables.add_bot(table.pk, host, "easy")
    return table
