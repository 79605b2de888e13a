"""The control room's rows: every table with its players, its game and how late it is."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from games import clock
from games.models import Game, Seat, Table
from staff.models import TableLock

STUCK_AFTER = 10.0
"""A deadline this many seconds late means the scheduler is not firing it."""

FILTERS = {
    "all": _("all"),
    "running": _("running"),
    "waiting": _("waiting"),
    "stuck": _("stuck (over 10 s late)"),
}
SORT_LABELS = {
    "late": _("lateness"),
    "name": _("name"),
    "stake": _("stake"),
    "bank": _("bank"),
    "players": _("players"),
    "newest": _("newest"),
}
PHASES = {
    "lead": _("lead"),
    "defend": _("defence"),
    "closing": _("closing the round"),
    "over": _("over"),
    "starting": _("starting"),
    "waiting": _("waiting"),
}
SORTS = {
    "late": lambda row: (-row.late, row.table.pk),
    "name": lambda row: (row.table.name.lower(), row.table.pk),
    "stake": lambda row: (-row.table.stake, row.table.pk),
    "bank": lambda row: (-row.bank, row.table.pk),
    "players": lambda row: (-row.people, row.table.pk),
    "newest": lambda row: (-row.table.pk,),
}


@dataclass(frozen=True)
class Row:
    table: Table
    seats: list[Seat]
    game: Game | None
    lock: TableLock | None
    now: float

    @property
    def state(self) -> str:
        return "running" if self.game is not None else "waiting"

    @property
    def phase(self) -> str:
        if self.game is not None:
            return str(self.game.state.get("phase", ""))
        return "starting" if self.table.starts_at is not None else "waiting"

    @property
    def phase_name(self) -> str:
        return str(PHASES.get(self.phase, self.phase))

    @property
    def deadline(self) -> datetime | None:
        return self.game.deadline_at if self.game is not None else self.table.starts_at

    @property
    def late(self) -> float:
        """Seconds since the next deadline passed (0 while it is still ahead)."""
        if self.deadline is None:
            return 0.0
        return max(0.0, self.now - clock.to_seconds(self.deadline))

    @property
    def stuck(self) -> bool:
        return self.late > STUCK_AFTER

    @property
    def bank(self) -> int:
        return self.game.bank if self.game is not None else 0

    @property
    def people(self) -> int:
        return sum(1 for seat in self.seats if not seat.is_bot)

    @property
    def deadline_ms(self) -> int | None:
        return int(clock.to_seconds(self.deadline) * 1000) if self.deadline else None

    def matches(self, shown: str) -> bool:
        if shown == "stuck":
            return self.stuck
        return shown == "all" or shown == self.state


def tables(ids: Iterable[int] | None = None) -> list[Row]:
    """Rows for the tables that are not closed (or for just the tables `ids`)."""
    query = Table.objects.exclude(status=Table.Status.CLOSED).prefetch_related(
        Prefetch("seat_set", queryset=Seat.objects.select_related("player").order_by("position"))
    )
    if ids is not None:
        query = query.filter(pk__in=list(ids))
    found = list(query)
    running = {
        game.table_id: game
        for game in Game.objects.filter(
            status=Game.Status.RUNNING, table__in=[table.pk for table in found]
        )
    }
    locks = {
        lock.table_id: lock
        for lock in TableLock.objects.in_force()
        .filter(table__in=[table.pk for table in found])
        .select_related("started_by")
    }
    now = clock.now()
    return [
        Row(table, list(table.seat_set.all()), running.get(table.pk), locks.get(table.pk), now)
        for table in found
    ]


def rows(shown: str = "all", sort: str = "late") -> list[Row]:
    shown = shown if shown in FILTERS else "all"
    order = SORTS.get(sort, SORTS["late"])
    return sorted((row for row in tables() if row.matches(shown)), key=order)


def render_row(row: Row) -> str:
    return render_to_string("staff/fragments/table_row.html", {"row": row})


def render_rows(table_ids: Iterable[int]) -> dict[str, str]:
    """The current row of each table by id; an empty string for a table that is gone."""
    wanted = {int(pk) for pk in table_ids}
    found = {row.table.pk: render_row(row) for row in tables(wanted)}
    return {str(pk): found.get(pk, "") for pk in sorted(wanted)}
