"""Rows read in SQL written once from the models' own table and column names, with values
prepared and read back by the models' own fields, on SQLite and PostgreSQL alike: the
helpers, and the reads of a table that the writers and the pictures share (a table with
its running game, its seats with their players, a game's latest events).

Building these statements through the ORM on every call cost more than running them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, Model
from django.utils import timezone

from accounts.models import User
from games.models import Game, GameEvent, GamePlayer, Seat, Table


def table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def field(model: type[Model], name: str) -> Field[Any, Any]:
    found = model._meta.get_field(name)
    assert isinstance(found, Field)
    return found


def column(model: type[Model], name: str) -> str:
    return connection.ops.quote_name(str(field(model, name).column))


def prepared(model: type[Model], name: str, value: Any) -> Any:
    return field(model, name).get_db_prep_save(value, connection)


def moment(value: Any) -> datetime | None:
    """A date and time as the database gave it, as the ORM would have read it."""
    convert = getattr(connection.ops, "convert_datetimefield_value", None)
    if convert is not None:
        value = convert(value, None, connection)
    if isinstance(value, datetime) and timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


@dataclass(frozen=True)
class Reading:
    """How to read one model's whole row from the columns of a statement: its fields in
    order, and the converters the ORM would apply to each value."""

    model: type[Model]
    names: tuple[str, ...]
    converters: tuple[tuple[Any, ...], ...]
    fields: tuple[Field[Any, Any], ...]

    @classmethod
    def of(cls, model: type[Model], alias: str, deferred: tuple[str, ...] = ()) -> Reading:
        """The model's fields but those `deferred` (left unread, as `QuerySet.defer` does)."""
        fields = tuple(each for each in model._meta.concrete_fields if each.name not in deferred)
        converters = tuple(converters_of(each.get_col(alias)) for each in fields)
        return cls(model, tuple(each.attname for each in fields), converters, fields)

    def columns(self, alias: str) -> str:
        return ", ".join(
            f"{alias}.{connection.ops.quote_name(str(each.column))}" for each in self.fields
        )

    def row(self, values: Sequence[Any]) -> Any:
        """The model instance of these values, as the ORM would have made it."""
        converted = [
            as_read(value, converters)
            for value, converters in zip(values, self.converters, strict=True)
        ]
        return self.model.from_db(connection.alias, list(self.names), converted)

    @property
    def width(self) -> int:
        return len(self.names)


@cache
def readings() -> tuple[Reading, Reading, Reading, Reading]:
    """How to read a game, a table, a seat and a user from the columns of a statement."""
    games, tables_, seats, users = (
        Reading.of(model, alias)
        for model, alias in ((Game, "g"), (Table, "t"), (Seat, "s"), (User, "u"))
    )
    return games, tables_, seats, users


@cache
def table_sql(vendor: str) -> str:
    games, tables_, _seats, _users = readings()
    g, t = table(Game), table(Table)
    return (
        f"SELECT {tables_.columns('t')}, {games.columns('g')} FROM {t} t "
        f"LEFT JOIN {g} g ON g.{column(Game, 'table')} = t.{column(Table, 'id')} "
        f"AND g.{column(Game, 'status')} = %s WHERE t.{column(Table, 'id')} = %s"
    )


def table_and_game(table_id: int) -> tuple[Table, Game | None] | None:
    """The table and its running game (with the table), as `Table.objects.get` and
    `table.games.filter(status=RUNNING).first()` would read them, in one statement; None
    if there is no such table."""
    games, tables_, _seats, _users = readings()
    with connection.cursor() as cursor:
        cursor.execute(table_sql(connection.vendor), [Game.Status.RUNNING.value, table_id])
        found = cursor.fetchone()
    if found is None:
        return None
    row = tables_.row(found[: tables_.width])
    game_values = found[tables_.width :]
    if game_values[0] is None:
        return row, None
    game = games.row(game_values)
    game.table = row
    return row, game


def seats_of(at: Table) -> list[Seat]:
    """The table's seats with their players, by position, as `Table.seats_in_order` reads
    them, in one statement built once."""
    return with_players(Seat, "table", "position", at)


@cache
def with_players_sql(
    vendor: str, model: type[Model], owner_field: str, order: str
) -> tuple[str, Reading]:
    reading, users = Reading.of(model, "r"), readings()[3]
    r, u = table(model), table(User)
    return (
        f"SELECT {reading.columns('r')}, {users.columns('u')} FROM {r} r "
        f"LEFT JOIN {u} u ON u.{column(User, 'id')} = r.{column(model, 'player')} "
        f"WHERE r.{column(model, owner_field)} = %s ORDER BY r.{column(model, order)}"
    ), reading


def with_players(model: type[Model], owner_field: str, order: str, owner: Model) -> list[Any]:
    """The rows of `model` whose `owner_field` is `owner`, by `order`, each with its player
    (a user or none) and with `owner` as its `owner_field`, in one statement."""
    sql, reading = with_players_sql(connection.vendor, model, owner_field, order)
    users = readings()[3]
    with connection.cursor() as cursor:
        cursor.execute(sql, [owner.pk])
        found = cursor.fetchall()
    read = []
    for values in found:
        instance = reading.row(values[: reading.width])
        setattr(instance, owner_field, owner)
        person = values[reading.width :]
        instance.player = users.row(person) if person[0] is not None else None
        read.append(instance)
    return read


@cache
def read_events_sql(vendor: str, *, latest: bool) -> str:
    """The data and version of a game's events: its latest (newest first, as many as asked
    for), or those of one version."""
    e = table(GameEvent)
    data, version, game, seq = (column(GameEvent, n) for n in ("data", "version", "game", "seq"))
    chosen = f"ORDER BY {seq} DESC LIMIT %s" if latest else f"AND {version} = %s ORDER BY {seq}"
    return f"SELECT {data}, {version} FROM {e} WHERE {game} = %s {chosen}"


def latest_events(game_id: int, count: int) -> list[tuple[dict[str, Any], int]]:
    """The game's last `count` events, oldest first: each one's data and version."""
    return events(read_events_sql(connection.vendor, latest=True), [game_id, count])[::-1]


def version_events(game_id: int, version: int) -> list[tuple[dict[str, Any], int]]:
    """The events one version of the game made, in order."""
    return events(read_events_sql(connection.vendor, latest=False), [game_id, version])


def events(sql: str, params: list[Any]) -> list[tuple[dict[str, Any], int]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [(read_value(GameEvent, "data", value), version) for value, version in rows]


def read_value(model: type[Model], name: str, value: Any) -> Any:
    """A column's value as the database gave it, as the ORM would have read it."""
    return as_read(value, column_converters(connection.vendor, model, name))


@cache
def column_converters(vendor: str, model: type[Model], name: str) -> tuple[Any, ...]:
    return converters_of(field(model, name).get_col(table(model)))


def converters_of(col: Any) -> tuple[Any, ...]:
    """A column and the converters the ORM applies to its values as the database gives them."""
    return (col, *connection.ops.get_db_converters(col), *col.get_db_converters(connection))


def as_read(value: Any, converters: tuple[Any, ...]) -> Any:
    col, *each = converters
    for convert in each:
        value = convert(value, col, connection)
    return value


@cache
def access_sql(vendor: str) -> str:
    t, s = table(Table), table(Seat)
    table_id, private, invite, status = (
        column(Table, name) for name in ("id", "private", "invite_code", "status")
    )
    return (
        f"SELECT t.{private}, t.{invite}, s.{column(Seat, 'position')} FROM {t} t "
        f"LEFT JOIN {s} s ON s.{column(Seat, 'table')} = t.{table_id} "
        f"AND s.{column(Seat, 'player')} = %s WHERE t.{table_id} = %s AND t.{status} <> %s"
    )


def table_access(table_id: int, user_id: int | None) -> tuple[bool, str | None, int | None] | None:
    """Of a table that is not closed: whether it is private, its invite code, and the seat
    the user has there (None for none); None if there is no such table."""
    with connection.cursor() as cursor:
        cursor.execute(access_sql(connection.vendor), [user_id, table_id, Table.Status.CLOSED])
        found = cursor.fetchone()
    if found is None:
        return None
    private, invite, position = found
    return bool(private), invite, position


@cache
def last_game_sql(vendor: str) -> tuple[str, Reading]:
    games = Reading.of(Game, "g", deferred=("state", "bot_moves"))
    g = table(Game)
    return (
        f"SELECT {games.columns('g')} FROM {g} g WHERE g.{column(Game, 'table')} = %s "
        f"AND g.{column(Game, 'status')} <> %s ORDER BY g.{column(Game, 'started_at')} DESC "
        "LIMIT 1"
    ), games


def last_game(table_id: int) -> Game | None:
    """The table's latest game that is over, without its state and bot schedule."""
    sql, games = last_game_sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id, Game.Status.RUNNING])
        found = cursor.fetchone()
    return games.row(found) if found is not None else None


def players_of(game: Game) -> list[GamePlayer]:
    """Who played each seat of the game, with their places and payouts, by seat."""
    return with_players(GamePlayer, "game", "seat", game)


@cache
def earlier_games_sql(vendor: str) -> str:
    pk, table_id, status = (column(Game, name) for name in ("id", "table", "status"))
    return (
        f"SELECT {pk} FROM {table(Game)} WHERE {table_id} = %s AND {status} <> %s "
        f"AND {pk} <> %s ORDER BY {column(Game, 'started_at')} DESC LIMIT %s"
    )


def earlier_games(table_id: int, shown: int | None, count: int) -> list[Game]:
    """The table's latest `count` games that are over but `shown`, newest first, with only
    their numbers read."""
    with connection.cursor() as cursor:
        cursor.execute(
            earlier_games_sql(connection.vendor),
            [table_id, Game.Status.RUNNING, shown or 0, count],
        )
        found = cursor.fetchall()
    return [Game.from_db(connection.alias, ["id"], [pk]) for (pk,) in found]
