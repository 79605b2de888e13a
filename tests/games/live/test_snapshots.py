"""What a (re)connecting page is drawn from, and what it costs to read."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from games.live import snapshots
from games.models import GameEvent
from games.picture import movelog, scene
from games.table import play, tables
from tests.support.tables import open_table, play_out, start_when_due


def table_of_bots(anna, frozen_clock):
    table = open_table(anna, stake=10, seats=4)
    for _ in range(3):
        tables.add_bot(table.pk, anna, "easy")
    return table


@pytest.mark.django_db
def test_a_snapshot_of_a_running_game_reads_the_table_in_four_statements(
    anna, frozen_clock, django_assert_max_num_queries
):
    table = table_of_bots(anna, frozen_clock)
    game = start_when_due(table, frozen_clock)
    for _ in range(3):
        frozen_clock.past_deadline(game)
        play.tick(game.pk)
        game.refresh_from_db()
    for seat in (None, 0):
        with translation.override("ru"), django_assert_max_num_queries(4 + (seat == 0)):
            shown = snapshots.render(table.pk, seat)
        assert (shown.game, shown.version) == (game.pk, game.version)


@pytest.mark.django_db
def test_a_snapshot_of_a_waiting_room_after_a_game_reads_it_in_eight_statements(
    anna, frozen_clock, django_assert_max_num_queries
):
    table = table_of_bots(anna, frozen_clock)
    game = start_when_due(table, frozen_clock)
    play_out(game, frozen_clock)
    for seat in (None, 0):
        with translation.override("en"), django_assert_max_num_queries(8 + (seat == 0)):
            shown = snapshots.render(table.pk, seat)
        # A random deal may end in a draw: the picture tells the last game either way.
        assert shown.game is None and reverse("game_history", args=[game.pk]) in shown.html


@pytest.mark.django_db
def test_the_log_of_a_snapshot_is_the_latest_lines_of_the_last_game(anna, frozen_clock):
    table = table_of_bots(anna, frozen_clock)
    game = play_out(start_when_due(table, frozen_clock), frozen_clock)
    events = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert len(events) > snapshots.LOG_LINES
    latest = [event.data for event in events[-snapshots.LOG_LINES :]]
    with translation.override("en"):
        html = snapshots.render(table.pk, None).html
        expected = movelog.log_entries(latest, scene.log_names(game), None)
    log = html.split('<ol id="log"', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r"<li>(.*?)</li>", log, re.S) == [str(escape(line)) for line in expected]
