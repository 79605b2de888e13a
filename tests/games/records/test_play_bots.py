from __future__ import annotations

from datetime import datetime, timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from games import clock
from games.models import Game, Seat, Table
from games.table import play, tables

pytestmark = pytest.mark.usefixtures("ledger_audit")


def span(game: Game) -> tuple[datetime, datetime]:
    """When a finished game started and when it ended."""
    assert game.started_at is not None and game.finished_at is not None
    return game.started_at, game.finished_at


def play_bots(*args: str) -> list[int]:
    out = StringIO()
    call_command("play_bots", *args, stdout=out)
    return [int(line) for line in out.getvalue().split()]


@pytest.mark.django_db
def test_play_bots_plays_every_game_to_its_end_and_prints_the_ids():
    ids = play_bots("--games", "2", "--players", "3")
    games = Game.objects.filter(pk__in=ids)
    assert len(ids) == 2 and games.count() == 2
    for game in games:
        assert game.status == Game.Status.FINISHED
        places = list(game.players.values_list("place", flat=True))
        assert len(places) == 3 and None not in places
        assert game.events.filter(type="over").exists() or game.events.filter(type="stopped")


@pytest.mark.django_db
def test_play_bots_seats_the_named_player_with_the_stake_and_leaves_no_open_table(anna):
    ids = play_bots("--games", "2", "--players", "2", "--seat", "anna", "--stake", "10")
    for game in Game.objects.filter(pk__in=ids):
        mine = game.players.get(player=anna)
        assert mine.stake == 10 and mine.payout is not None
        assert game.players.get(player=None).bot_level == "easy"
    assert not Seat.objects.filter(player=anna).exists()
    assert Table.objects.get(games__pk=ids[0]).status == Table.Status.CLOSED


@pytest.mark.django_db
def test_play_bots_runs_the_games_on_its_own_clock_not_in_real_time():
    (game_id,) = play_bots("--games", "1", "--players", "2", "--level", "strong")
    game = Game.objects.get(pk=game_id)
    assert game.players.filter(bot_level="strong").count() == 2
    started, finished = span(game)
    assert (finished - started).total_seconds() > 20


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "nobody"], "there is no player 'nobody'"),
        (["--players", "5"], "A game has 2 to 4 players."),
        (["--games", "0"], "--games must be at least 1"),
        (["--stake", "-1"], "--stake cannot be negative"),
    ],
)
def test_play_bots_refuses_what_it_cannot_do_and_plays_nothing(args, message):
    with pytest.raises(CommandError, match=message):
        play_bots(*args)
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_play_bots_stops_with_a_message_when_the_player_cannot_pay(anna):
    with pytest.raises(CommandError, match="chips"):
        play_bots("--seat", "anna", "--stake", "5000")
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_bots_game_table_is_named_in_the_readers_language():
    from django.utils import translation

    with translation.override("ru"):
        (game_id,) = play_bots("--games", "1", "--players", "2")
    table = Table.objects.get(games__pk=game_id)
    with translation.override("en"):
        assert table.title == "Bots' game (easy)"
    with translation.override("ru"):
        assert table.title == "Партия ботов (лёгкий)"


@pytest.mark.django_db
def test_bots_games_are_placed_in_time_so_that_the_last_ends_by_now():
    from django.utils import timezone

    ids = play_bots("--games", "3", "--players", "4")
    now = timezone.now()
    games = list(Game.objects.filter(pk__in=ids).order_by("pk"))
    for game in games:
        started, finished = span(game)
        assert started <= finished <= now
    assert now - span(games[-1])[1] < timedelta(seconds=60)
    starts = [span(game)[0] for game in games]
    assert starts == sorted(starts)


@pytest.mark.django_db
def test_play_bots_plays_on_a_game_the_sites_scheduler_dealt_first(anna, monkeypatch):
    arm = tables.play_again

    def site_deals_first(table_id: int, player: User) -> None:
        arm(table_id, player)
        starts_at = Table.objects.get(pk=table_id).starts_at
        assert starts_at is not None
        with clock.simulated(clock.to_seconds(starts_at) + 1):
            assert play.start(table_id) is not None

    monkeypatch.setattr(tables, "play_again", site_deals_first)
    (game_id,) = play_bots("--games", "1", "--players", "2", "--seat", "anna")
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    assert game.players.get(player=anna).place is not None
    assert not Seat.objects.filter(player=anna).exists()
