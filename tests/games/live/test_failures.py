"""A failure is logged with the table, the game and its version: in a socket, and in the
writer when the scheduler fires a deadline."""

from __future__ import annotations

import logging
from operator import attrgetter
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.deadlines import scheduler
from games.live import failures
from games.live.sockets import SERVER_ERROR
from games.models import Seat
from games.table import play, tables
from tests.support.sockets import connected, running_game, two_player_table, until_closed
from tests.support.tables import open_table, start_when_due

pytestmark = pytest.mark.usefixtures("in_memory_layer")


def broken(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("a bug in the writer")


def failure_logged(caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert record.exc_info is not None and "a bug in the writer" in str(record.exc_info[1])
    return record


def assert_placed(record: logging.LogRecord, table: int, game: int | None, version: int | None):
    assert attrgetter("table", "game", "version")(record) == (table, game, version)
    words = f"table {table}, game {game or '?'}, version {version or '?'}"
    assert words in record.getMessage()


@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_that_fails_logs_its_table_game_and_version(
    anna, boris, frozen_clock, sockets, monkeypatch, caplog
):
    table = await two_player_table(anna, boris, frozen_clock)
    game = await running_game(table)
    socket = await connected(sockets, table, anna)
    monkeypatch.setattr(play, "act_at_table", broken)
    await socket.send(action="take", version=game.version)
    _frames, code = await until_closed(socket)
    assert code == SERVER_ERROR
    record = failure_logged(caplog)
    assert_placed(record, table.pk, game.pk, game.version)
    seat = await database_sync_to_async(lambda: table.seat_set.get(player=anna).position)()
    shown = f"seat {seat}, game {game.pk}, version {game.version}, user {anna.pk}"
    assert shown in record.getMessage()
    sockets.remove(socket)


def test_a_game_deadline_that_fails_logs_its_table_game_and_version(
    anna, boris, frozen_clock, monkeypatch, caplog
):
    table = open_table(anna)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    frozen_clock.advance(60)
    monkeypatch.setattr(play, "tick", broken)
    scheduler.fire_each("game", [(game.pk, 0.0)], lambda pk, at: play.tick(pk, at))
    assert_placed(failure_logged(caplog), table.pk, game.pk, game.version)


def test_a_start_that_fails_logs_its_table_and_its_last_game(
    anna, boris, frozen_clock, monkeypatch, caplog
):
    table = open_table(anna)
    monkeypatch.setattr(play, "start", broken)
    scheduler.fire_each("start", [(table.pk, 0.0)], lambda pk, at: play.start(pk) is not None)
    assert_placed(failure_logged(caplog), table.pk, None, None)


def test_a_standing_up_that_fails_logs_the_seats_table(anna, boris, monkeypatch, caplog):
    table = open_table(anna)
    tables.join(table.pk, boris)
    seat = Seat.objects.get(table=table, player=boris)
    monkeypatch.setattr(tables, "stand_up", broken)
    scheduler.fire_each("standup", [(seat.pk, 0.0)], tables.stand_up)
    assert_placed(failure_logged(caplog), table.pk, None, None)


def test_a_place_that_cannot_be_read_is_logged_as_unknown(db, monkeypatch):
    monkeypatch.setattr(failures, "DEADLINES", {"game": broken})
    place = failures.of_deadline("game", 7)
    assert place == {"table": None, "game": None, "version": None}
    assert failures.described(place) == "table ?, game ?, version ?"
