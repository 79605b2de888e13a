"""A process starts a game's next action from what it wrote last, while nothing else changed
the game; a player's sockets reporting in change nothing it holds but the sighting."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import clock
from games.models import Game, Seat
from games.table import play, tables
from games.table.held_games import held_games
from tests.support.tables import open_table, start_when_due


def moved_game(anna, boris, frozen_clock) -> Game:
    """A two-player game after the attacker's lead, as this process wrote it."""
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    seat = game.state["attacker"]
    lead = play.load(game.pk).engine.legal_actions(seat)[0]
    player = game.players.get(seat=seat).player
    assert player is not None
    play.act(game.pk, player, lead, game.version)
    game.refresh_from_db()
    return game


def queries_of_a_load(game: Game) -> tuple[play.Loaded, int]:
    with CaptureQueriesContext(connection) as queries:
        loaded = play.load(game.pk, lock=False)
    return loaded, len(queries)


@pytest.mark.django_db(transaction=True)
def test_the_next_action_starts_from_the_held_game_with_one_query(anna, boris, frozen_clock):
    game = moved_game(anna, boris, frozen_clock)
    loaded, queries = queries_of_a_load(game)
    assert queries == 1
    assert (loaded.row.version, loaded.row.state) == (game.version, game.state)


@pytest.mark.django_db(transaction=True)
def test_a_game_whose_seat_another_writer_changed_is_read_again(anna, boris, frozen_clock):
    game = moved_game(anna, boris, frozen_clock)
    Seat.objects.filter(table=game.table, player=boris).update(away=True)
    loaded, queries = queries_of_a_load(game)
    assert queries > 1
    assert [seat.away for seat in loaded.seats if seat.player_id == boris.pk] == [True]


@pytest.mark.django_db(transaction=True)
def test_a_player_seen_again_keeps_the_held_game_with_the_new_sighting(anna, boris, frozen_clock):
    game = moved_game(anna, boris, frozen_clock)
    seen = clock.to_datetime(clock.now()) + timedelta(seconds=7)
    Seat.objects.filter(table=game.table, player=boris).update(last_seen=seen)
    loaded, queries = queries_of_a_load(game)
    assert queries == 1
    assert [seat.last_seen for seat in loaded.seats if seat.player_id == boris.pk] == [seen]


@pytest.mark.django_db(transaction=True)
def test_what_a_writer_changes_in_its_copies_never_reaches_what_is_held(anna, boris, frozen_clock):
    game = moved_game(anna, boris, frozen_clock)
    first = play.load(game.pk, lock=False)
    first.row.version += 5
    first.seats[0].away = True
    again, queries = queries_of_a_load(game)
    assert queries == 1
    assert again.row.version == game.version
    assert again.seats[0].away is False
    held_games.drop(game.pk)
