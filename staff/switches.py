"""What the staff have in force, as the rest of the site asks about it: the banners, the
pause of new games, locked tables (the games ask through `games.gates`: `StaffGate`)."""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.gates import Gate, Hold
from games.rows import column, table
from staff.models import NewGamesPause, SiteNotice, TableLock


def new_games_paused() -> bool:
    return NewGamesPause.objects.in_force().exists()


def lock_of(table_id: int) -> TableLock | None:
    return TableLock.objects.in_force().filter(table_id=table_id).first()


def locked_table_ids() -> set[int]:
    return set(TableLock.objects.in_force().values_list("table_id", flat=True))


HOLDS = {
    "paused": gettext_lazy("The staff paused new games for now; running games finish."),
    "locked": gettext_lazy("The staff locked this table: no new game starts here."),
}
SEATED_WHILE_PAUSED = gettext_lazy(
    "New games are paused for now: you have your seat, and no game starts until the staff let "
    "new games start again."
)


@cache
def holds_sql(vendor: str) -> str:
    pause, lock = table(NewGamesPause), table(TableLock)
    ended = column(NewGamesPause, "ended_at")
    return (
        f"SELECT EXISTS (SELECT 1 FROM {pause} WHERE {ended} IS NULL), "
        f"EXISTS (SELECT 1 FROM {lock} WHERE {column(TableLock, 'ended_at')} IS NULL "
        f"AND {column(TableLock, 'table')} = %s)"
    )


def hold(table_id: int) -> Hold | None:
    """Why no new game may start at this table now, or None: the pause and the table's lock
    in force are read in one statement (every waiting room asks)."""
    with connection.cursor() as cursor:
        cursor.execute(holds_sql(connection.vendor), [table_id])
        paused, locked = cursor.fetchone()
    kind = "paused" if paused else "locked" if locked else None
    return Hold(kind, str(HOLDS[kind])) if kind is not None else None


def join_refusal(table_id: int) -> str | None:
    """Why nobody may sit down at this table now, or None."""
    if lock_of(table_id) is not None:
        return _("The staff locked this table: nobody new may sit down.")
    return None


class StaffGate(Gate):
    """The games' question whether a table may start or be joined, as the staff answer it."""

    def hold(self, table_id: int) -> Hold | None:
        return hold(table_id)

    def join_refusal(self, table_id: int) -> str | None:
        return join_refusal(table_id)

    def locked_tables(self) -> set[int]:
        return locked_table_ids()

    def paused_words(self) -> str | None:
        return str(SEATED_WHILE_PAUSED) if new_games_paused() else None


def banners() -> list[str]:
    """The lines every page and every table shows at the top, newest first."""
    lines = [notice.text for notice in SiteNotice.objects.in_force().order_by("-started_at")]
    if new_games_paused():
        lines.append(_("New games are paused for now; running games finish."))
    return lines


def render_banners() -> str:
    """The banner block, to swap into pages that are already open."""
    return render_to_string(
        "staff/fragments/banners.html", {"site_banners": banners(), "oob": True}
    )
