"""The rows the writers start from, and the statements they run on every action, in SQL
written once.

`locked_table` is where every change to a table starts: its row, locked for the
transaction.

Each action of every running game goes through these: telling whether a game is as its
writer last knew it, claiming a due game, locking a game at a version, saving a version
and appending its events. Building them through the ORM cost more than running them, so
they are plain SQL over the models' own table and column names, with values prepared by
the models' own fields, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.errors import GameError
from games.models import Game, GameEvent, Seat, Table
from games.rows import column, field, moment, prepared, readings, seats_of, table

Fingerprint = tuple[tuple[Any, ...], tuple[tuple[Any, ...], ...]]
"""A game's own columns that change without its version (its status, its event count, its
table's status) and, for each seat, who sits there, its flags, when its player was last
seen, and that player's name, language and standing."""

GAME_COLUMNS = ("version", "status", "event_seq")
SEAT_COLUMNS = ("away", "left", "timeouts", "ready")
"""What a game's writer changes in a seat."""
LAST_SEEN = 4 + len(SEAT_COLUMNS)
"""Where a seat's last sighting stands in its row of a fingerprint."""


def locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise GameError(_("There is no such table.")) from None


def for_update() -> str:
    return " FOR UPDATE" if connection.features.has_select_for_update else ""


def fingerprint_columns() -> str:
    """What a game's fingerprint reads, and its deadline column, from the game `g`, its
    table `t`, each seat `s` and its player `u` (`fingerprint_joins`)."""
    game_columns = ", ".join(f"g.{column(Game, name)}" for name in GAME_COLUMNS)
    seat_columns = ", ".join(
        f"s.{column(Seat, name)}"
        for name in ("id", "position", "player", "bot_level", *SEAT_COLUMNS, "last_seen")
    )
    user_columns = ", ".join(f"u.{column(User, name)}" for name in ("username", "language"))
    return (
        f"{game_columns}, t.{column(Table, 'status')}, g.{column(Game, 'deadline_at')}, "
        f"{seat_columns}, {user_columns}, u.{column(User, 'is_active')}"
    )


def fingerprint_joins() -> str:
    t, s, u = (table(m) for m in (Table, Seat, User))
    return (
        f"JOIN {t} t ON t.{column(Table, 'id')} = g.{column(Game, 'table')} "
        f"LEFT JOIN {s} s ON s.{column(Seat, 'table')} = g.{column(Game, 'table')} "
        f"LEFT JOIN {u} u ON u.{column(User, 'id')} = s.{column(Seat, 'player')}"
    )


@cache
def fingerprint_sql(vendor: str, lock: bool) -> str:
    locking = " FOR UPDATE OF g" if lock and connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {fingerprint_columns()} FROM {table(Game)} g {fingerprint_joins()} "
        f"WHERE g.{column(Game, 'id')} = %s ORDER BY s.{column(Seat, 'position')}{locking}"
    )


Found = tuple[Fingerprint, datetime | None]
"""A game's fingerprint and its deadline column, as read."""


def fingerprint(game_id: int, *, lock: bool) -> Found | None:
    """The game's fingerprint and its deadline column, as stored now (the game row locked
    with `lock`, where the database locks rows); None if there is no such game."""
    with connection.cursor() as cursor:
        cursor.execute(fingerprint_sql(connection.vendor, lock), [game_id])
        return read_fingerprint(cursor.fetchall())


def read_fingerprint(rows: Sequence[Sequence[Any]]) -> Found | None:
    """A fingerprint from the rows of `fingerprint_columns`, one a seat."""
    if not rows:
        return None
    first = rows[0]
    own, deadline = tuple(first[:4]), moment(first[4])
    seats = tuple(tuple(row[5:]) for row in rows if row[5] is not None)
    return (own, seats), deadline


def without_sightings(known: Fingerprint) -> Fingerprint:
    """The fingerprint less when each seat's player was last seen: their sockets report in
    every few seconds, which changes nothing a writer holds but the sighting itself."""
    own, seats = known
    return own, tuple((*seat[:LAST_SEEN], *seat[LAST_SEEN + 1 :]) for seat in seats)


def sightings(known: Fingerprint) -> dict[int, datetime | None]:
    """When each seat's player was last seen, by seat, as the fingerprint read it."""
    return {seat[0]: moment(seat[LAST_SEEN]) for seat in known[1]}


def after_write(known: Fingerprint, row: Game, seats: Sequence[Seat]) -> Fingerprint | None:
    """The fingerprint the database holds once `row` and `seats` as the writer left them are
    committed over `known` (read before the write); None if the seats are not the ones read."""
    own = (row.version, row.status, row.event_seq, row.table.status)
    read = {entry[0]: entry for entry in known[1]}
    seat_rows = []
    for seat in seats:
        before = read.get(seat.pk)
        if before is None:
            return None
        flags = tuple(getattr(seat, name) for name in SEAT_COLUMNS)
        seat_rows.append((*before[:4], *flags, *before[4 + len(SEAT_COLUMNS) :]))
    if len(seat_rows) != len(known[1]):
        return None
    return own, tuple(seat_rows)


def own_or_unclaimed() -> str:
    """The games a scheduler takes up first: those it fired last and those no scheduler has
    fired yet (its name the one parameter)."""
    writer = column(Game, "writer")
    return f"{writer} = %s OR {writer} = ''"


def takeable() -> str:
    """Which due games a scheduler may claim: its own or unclaimed ones, and another's once
    they are overdue (`games.deadlines.scheduler.HANDOVER_SECONDS`; the moment the
    second parameter)."""
    return f"({own_or_unclaimed()} OR {column(Game, 'deadline_at')} <= %s)"


@cache
def claim_sql(vendor: str) -> tuple[str, str]:
    g = table(Game)
    deadline, status, pk, writer = (
        column(Game, name) for name in ("deadline_at", "status", "id", "writer")
    )
    earliest = (
        f"SELECT {pk}, {deadline} FROM {g} WHERE {status} = %s AND {deadline} IS NOT NULL "
        f"AND {takeable()} ORDER BY {deadline} LIMIT 2"
    )
    claim = f"UPDATE {g} SET {deadline} = %s, {writer} = %s WHERE {pk} = %s AND {deadline} = %s"
    return earliest, claim


@cache
def claim_unheld_sql(vendor: str, lock: bool = False) -> str:
    """The earliest due game that no other writer holds locked, claimed in one statement
    (where the database can pass over locked rows), with its fingerprint and the deadline
    of the game the writer may take after it (`following_column`): every row is that
    deadline, then the game's id, the deadline it was due at and the version of the row the
    claim locked, then a seat's row of `fingerprint_sql`; one row of the deadline alone when
    no game was due. All of it is read from the statement's snapshot, before the claim
    moved the game's deadline; the locked row's version is newer than the snapshot's when
    another writer committed in between.

    With `lock`, the game's row stays locked for the transaction the statement runs in
    instead of its deadline moving, and its writer is named only when it was another's or
    nobody's (`lock_earliest`)."""
    g, t, s, u = (table(m) for m in (Game, Table, Seat, User))
    deadline, status, pk, writer, version = (
        column(Game, name) for name in ("deadline_at", "status", "id", "writer", "version")
    )
    if lock:
        taken = (
            f"named AS (UPDATE {g} AS named SET {writer} = %s FROM due "
            f"WHERE named.{pk} = due.{pk} AND due.{writer} <> %s), "
            f"taken AS (SELECT {pk} AS taken_id, {deadline} AS taken_at, "
            f"{version} AS taken_version FROM due)"
        )
    else:
        taken = (
            f"taken AS (UPDATE {g} AS claimed SET {deadline} = %s, {writer} = %s FROM due "
            f"WHERE claimed.{pk} = due.{pk} RETURNING due.{pk} AS taken_id, "
            f"due.{deadline} AS taken_at, claimed.{version} AS taken_version)"
        )
    return (
        f"WITH due AS (SELECT {pk}, {deadline}, {writer}, {version} FROM {g} "
        f"WHERE {status} = %s AND {deadline} <= %s AND {takeable()} "
        f"ORDER BY {deadline} LIMIT 1 FOR UPDATE SKIP LOCKED), {taken}, "
        f"ahead AS (SELECT {following_column(f'{pk} NOT IN (SELECT taken_id FROM taken)')} "
        f"AS following) "
        f"SELECT ahead.following, taken.taken_id, taken.taken_at, taken.taken_version, "
        f"{fingerprint_columns()} FROM ahead LEFT JOIN taken ON TRUE "
        f"LEFT JOIN {g} g ON g.{pk} = taken.taken_id "
        f"LEFT JOIN {t} t ON t.{column(Table, 'id')} = g.{column(Game, 'table')} "
        f"LEFT JOIN {s} s ON s.{column(Seat, 'table')} = g.{column(Game, 'table')} "
        f"LEFT JOIN {u} u ON u.{column(User, 'id')} = s.{column(Seat, 'player')} "
        f"ORDER BY s.{column(Seat, 'position')}"
    )


def following_column(games: str) -> str:
    """The earliest deadline of the running games a writer may take (`takeable`) that meet
    `games` (a condition on the game table's columns); three parameters: the running
    status, the writer and the moment another's game is overdue."""
    deadline, status = column(Game, "deadline_at"), column(Game, "status")
    return (
        f"(SELECT MIN({deadline}) FROM {table(Game)} "
        f"WHERE {status} = %s AND {takeable()} AND {games})"
    )


class Claimed(NamedTuple):
    game: int
    deadline: datetime
    """The deadline the game was due at, before the claim moved it."""
    found: Found | None
    """Its fingerprint and deadline column, as read when it was claimed."""


class Claiming(NamedTuple):
    claimed: Claimed | None
    following: datetime | None
    """The earliest deadline of the running games the writer may take but the claimed one,
    read with it: the next game it fires, unless another writer moves one nearer."""


def claim_earliest(
    now: datetime, until: datetime, writer: str = "", overdue: datetime | None = None
) -> Claiming:
    """The running game whose deadline came first among those `writer` may take (its own,
    the unclaimed, and another's due since `overdue`, by default `now`), its deadline moved
    to `until` and `writer` named as its own (see `games.deadlines.scheduler.claim_game`);
    with its fingerprint, which its writer starts from, and the deadline of the game it may
    take next. Where the database locks rows, a game another writer holds is passed over,
    and all of it is one statement; elsewhere the two earliest games it may take are read
    (the first is the claimed one, if due, the second the one after it) and the update
    holds only if the column still holds the deadline read.

    The moments of the rest (other writers' games before they are overdue, starts and the
    ends of graces) are not read here: a claim comes every few milliseconds in a busy room,
    and those change seldom (`next_moments` reads them)."""
    running = Game.Status.RUNNING.value
    due = prepared(Game, "deadline_at", now)
    handed = prepared(Game, "deadline_at", now if overdue is None else overdue)
    ends = prepared(Game, "deadline_at", until)
    if claims_lock():
        with connection.cursor() as cursor:
            cursor.execute(
                claim_unheld_sql(connection.vendor),
                [running, due, writer, handed, ends, writer, running, writer, handed],
            )
            return read_claiming(cursor.fetchall())
    earliest, claim = claim_sql(connection.vendor)
    with connection.cursor() as cursor:
        while True:
            cursor.execute(earliest, [running, writer, handed])
            first, *rest = cursor.fetchall() or [(None, None)]
            pk, stored = first
            at = moment(stored)
            if pk is None or at is None or at > now:
                return Claiming(None, at)
            cursor.execute(claim, [ends, writer, pk, stored])
            if cursor.rowcount:
                following = moment(rest[0][1]) if rest else None
                return Claiming(Claimed(pk, at, fingerprint(pk, lock=False)), following)


def claims_lock() -> bool:
    """Whether the database passes over rows other writers hold locked, so that a claim is
    one statement that skips the games another writer is firing (PostgreSQL)."""
    return bool(connection.features.has_select_for_update_skip_locked)


def lock_earliest(now: datetime, writer: str, overdue: datetime) -> Claiming:
    """As `claim_earliest` where `claims_lock`, but the claimed game's row is locked for the
    transaction in progress instead of its deadline moving: the transaction that fires the
    game writes its row once, and other writers pass over it until it commits. Its writer
    is named `writer` when it was another's or nobody's."""
    assert connection.in_atomic_block, "the lock holds only for a transaction"
    running = Game.Status.RUNNING.value
    due = prepared(Game, "deadline_at", now)
    handed = prepared(Game, "deadline_at", overdue)
    with connection.cursor() as cursor:
        cursor.execute(
            claim_unheld_sql(connection.vendor, lock=True),
            [running, due, writer, handed, writer, writer, running, writer, handed],
        )
        return read_claiming(cursor.fetchall())


def read_claiming(rows: Sequence[Sequence[Any]]) -> Claiming:
    """A claim from the rows of `claim_unheld_sql`: its fingerprint is read again when
    the snapshot it was read from is older than the row the claim locked."""
    following = moment(rows[0][0])
    pk, stored, version = rows[0][1:4]
    if pk is None:
        return Claiming(None, following)
    at = moment(stored)
    assert at is not None
    found = read_fingerprint([row[4:] for row in rows])
    if found is None or found[0][0][0] != version:
        found = fingerprint(pk, lock=False)
    return Claiming(Claimed(pk, at, found), following)


@cache
def at_version_sql(vendor: str) -> str:
    pk, version = column(Game, "id"), column(Game, "version")
    return f"SELECT {pk} FROM {table(Game)} WHERE {pk} = %s AND {version} = %s{for_update()}"


def lock_at_version(game_id: int, version: int) -> bool:
    """Lock the game's row if it is still at `version`; whether it is."""
    with connection.cursor() as cursor:
        cursor.execute(at_version_sql(connection.vendor), [game_id, version])
        return cursor.fetchone() is not None


VERSION_COLUMNS = ("version", "table_version", "state", "bot_moves", "deadline_at", "event_seq")
"""What a version of a running game changes in its row."""
EVENT_COLUMNS = ("game", "seq", "version", "type", "seat", "data", "created_at")


def versions_at_once() -> bool:
    """Whether a version's row and its events are written in one statement (PostgreSQL:
    `save_sql` with its events), which needs no transaction around it."""
    return connection.vendor == "postgresql"


@cache
def save_sql(vendor: str, events: int = 0) -> str:
    """A version's row over the version read; with `events`, as one statement that also
    inserts that many events, only if the row was written (`versions_at_once`)."""
    assignments = ", ".join(f"{column(Game, name)} = %s" for name in VERSION_COLUMNS)
    pk, version = column(Game, "id"), column(Game, "version")
    update = f"UPDATE {table(Game)} SET {assignments} WHERE {pk} = %s AND {version} = %s"
    if not events:
        return update
    names = ", ".join(column(GameEvent, name) for name in EVENT_COLUMNS)
    typed = ", ".join(
        f"CAST(%s AS {field(GameEvent, name).db_type(connection)})" for name in EVENT_COLUMNS
    )
    rows = ", ".join([f"({typed})"] * events)
    return (
        f"WITH saved AS ({update} RETURNING {pk}) INSERT INTO {table(GameEvent)} ({names}) "
        f"SELECT v.* FROM saved, (VALUES {rows}) AS v({names})"
    )


def save_version(row: Game, read_at: int, events: Sequence[dict[str, Any]] = ()) -> bool:
    """Write the row's version over version `read_at`; whether the row was still at it (if
    not, nothing is written). Where the database locks rows, the row stays locked to the
    end of the transaction. `events`, the version's own, are written in the same statement
    (only where `versions_at_once`)."""
    values = [prepared(Game, name, getattr(row, name)) for name in VERSION_COLUMNS]
    with connection.cursor() as cursor:
        if not events:
            cursor.execute(save_sql(connection.vendor), [*values, row.pk, read_at])
            return cursor.rowcount == 1
        assert versions_at_once()
        first = row.event_seq - len(events) + 1
        inserted = event_values(row.pk, first, row.version, events)
        cursor.execute(
            save_sql(connection.vendor, len(events)), [*values, row.pk, read_at, *inserted]
        )
        return cursor.rowcount == len(events)


@cache
def events_sql(vendor: str, count: int) -> str:
    names = ", ".join(column(GameEvent, name) for name in EVENT_COLUMNS)
    one = "(" + ", ".join(["%s"] * len(EVENT_COLUMNS)) + ")"
    return f"INSERT INTO {table(GameEvent)} ({names}) VALUES " + ", ".join([one] * count)


def append_events(
    game_id: int, first_seq: int, version: int, events: Sequence[dict[str, Any]]
) -> None:
    """The events of one version, in one statement."""
    with connection.cursor() as cursor:
        cursor.execute(
            events_sql(connection.vendor, len(events)),
            event_values(game_id, first_seq, version, events),
        )


def event_values(
    game_id: int, first_seq: int, version: int, events: Sequence[dict[str, Any]]
) -> list[Any]:
    """The values of `EVENT_COLUMNS` for each event, in a row."""
    created = prepared(GameEvent, "created_at", timezone.now())
    values: list[Any] = []
    for index, event in enumerate(events):
        data = prepared(GameEvent, "data", event)
        values += [game_id, first_seq + index, version, str(event["type"])]
        values += [event.get("seat"), data, created]
    return values


def moments_columns() -> str:
    """The earliest moments of `next_moments`; five parameters: the running status, the
    writer, the running status, the open status twice.

    Each earliest moment is read by walking the index of its own column from its start
    to the first row that qualifies: the status of a table is compared as `status || ''`,
    which no index serves, so that SQLite does not go through every open table and its
    seats instead (a full room has hundreds waiting in line)."""
    g, t, s = table(Game), table(Table), table(Seat)
    deadline, status = column(Game, "deadline_at"), column(Game, "status")
    starts, table_status = column(Table, "starts_at"), column(Table, "status")
    release = column(Seat, "release_at")
    return (
        f"(SELECT MIN({deadline}) FROM {g} WHERE {status} = %s "
        f"AND ({own_or_unclaimed()})), "
        f"(SELECT MIN({deadline}) FROM {g} WHERE {status} = %s), "
        f"(SELECT {starts} FROM {t} WHERE {starts} IS NOT NULL "
        f"AND {table_status} || '' = %s ORDER BY {starts} LIMIT 1), "
        f"(SELECT s.{release} FROM {s} s JOIN {t} t "
        f"ON t.{column(Table, 'id')} = s.{column(Seat, 'table')} "
        f"WHERE s.{release} IS NOT NULL AND t.{table_status} || '' = %s "
        f"ORDER BY s.{release} LIMIT 1)"
    )


@cache
def next_moments_sql(vendor: str) -> str:
    return f"SELECT {moments_columns()}"


class Moments(NamedTuple):
    own_game: datetime | None
    """The earliest deadline of a running game `writer` fired last or nobody has fired."""
    game: datetime | None
    """The earliest deadline of any running game."""
    start: datetime | None
    release: datetime | None


def next_moments(writer: str = "") -> Moments:
    """The earliest deadline of a running game (of those `writer` takes first, and of all),
    start of an open table and end of a grace after a game (`games.table.standup`), in one
    statement."""
    running, opened = Game.Status.RUNNING.value, Table.Status.OPEN.value
    with connection.cursor() as cursor:
        cursor.execute(
            next_moments_sql(connection.vendor), [running, writer, running, opened, opened]
        )
        found = cursor.fetchone()
    return Moments(*(moment(value) for value in found))


@cache
def due_tables_sql(vendor: str) -> str:
    t = table(Table)
    starts = column(Table, "starts_at")
    return (
        f"SELECT {column(Table, 'id')}, {starts}, {column(Table, 'busy_until')} FROM {t} "
        f"WHERE {column(Table, 'status')} = %s AND {starts} <= %s ORDER BY {starts}"
    )


def due_tables(now: datetime) -> list[tuple[int, datetime, datetime | None]]:
    """Each open table whose start time came by `now`, earliest first: its id, that time and
    when it was told to expect its game. A full room reads the whole line at every look."""
    due = prepared(Table, "starts_at", now)
    with connection.cursor() as cursor:
        cursor.execute(due_tables_sql(connection.vendor), [Table.Status.OPEN.value, due])
        found = cursor.fetchall()
    return [(pk, at, moment(told)) for pk, starts, told in found if (at := moment(starts))]


@cache
def game_sql(vendor: str) -> str:
    games, tables_, _seats, _users = readings()
    g, t = table(Game), table(Table)
    return (
        f"SELECT {games.columns('g')}, {tables_.columns('t')} FROM {g} g "
        f"JOIN {t} t ON t.{column(Table, 'id')} = g.{column(Game, 'table')} "
        f"WHERE g.{column(Game, 'id')} = %s"
    )


def game_and_seats(game_id: int) -> tuple[Game, list[Seat]] | None:
    """The game with its table, and the table's seats with their players, by position, as
    `Game.objects.select_related("table")` and `Table.seats_in_order` would read them, in
    two statements built once."""
    games, tables_, _seats, _users = readings()
    with connection.cursor() as cursor:
        cursor.execute(game_sql(connection.vendor), [game_id])
        found = cursor.fetchone()
    if found is None:
        return None
    row = games.row(found[: games.width])
    row.table = tables_.row(found[games.width :])
    return row, seats_of(row.table)
