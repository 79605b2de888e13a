"""A game the staff stopped says so everywhere: no places, no draw, the refunds listed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.picture import scene, stopped
from games.table import play, tables
from ratings.statistics import record_of
from tests.support.tables import open_table, play_out, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


@pytest.fixture
def stopped_game(frozen_clock, anna, boris) -> Game:
    table = open_table(anna, stake=100)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    play.abort(game.pk, reason="test")
    game.refresh_from_db()
    return game


def test_a_stopped_game_lists_each_stake_it_returned(stopped_game):
    summary = stopped.summary(stopped_game)
    assert summary is not None
    assert [(r.player.label, r.amount) for r in summary.refunds] == [("anna", 100), ("boris", 100)]
    assert summary.returned == 200


def test_a_finished_game_has_no_stopped_summary(frozen_clock, anna, boris):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    game = play_out(start_when_due(table, frozen_clock), frozen_clock)
    assert stopped.summary(game) is None


def test_the_table_shows_a_stopped_game_as_stopped_not_as_a_draw(stopped_game, anna):
    seat = stopped_game.table.seat_set.get(player=anna)
    html = scene.render(scene.of_table(stopped_game.table_id), scene.Audience(seat.position, "en"))
    assert "Stopped by the staff: every stake returned" in html
    assert "draw" not in html.lower() and "durak" not in html.lower()
    assert "Place" not in html and 'data-outcome="stopped"' in html
    assert 'data-action="play-again"' in html


def test_the_history_shows_a_stopped_game_with_its_refunds_and_no_receipt(stopped_game):
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("game_history", args=[stopped_game.pk]))
    html = page.content.decode()
    assert "Stopped by the staff: every stake returned" in html
    assert "Stakes returned" in html and "paid out by place" not in html
    assert "draw" not in html.lower()


def test_a_stopped_game_counts_for_nothing_in_a_players_statistics(stopped_game, anna):
    record = record_of(anna)
    assert (record.played, record.stopped, record.net_chips) == (0, 1, 0)
