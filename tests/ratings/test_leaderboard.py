"""The leaderboard ranks by rating (with a minimum of games), net chips and win rate."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import time_machine
from django.test import Client
from django.urls import reverse

from accounts.models import User
from ratings.leaderboard import MIN_GAMES, Board, Period, leaderboard
from ratings.services import rate_unrated
from tests.ratings.conftest import play_game

MakePlayer = Callable[[str], User]
WEDNESDAY = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def names(board: Board, period: Period = Period.ALL) -> list[str]:
    return [row.name for row in leaderboard(board, period)]


def test_the_rating_board_needs_the_minimum_of_games_and_shows_the_bot_levels(
    make_player: MakePlayer,
) -> None:
    anna, boris, clara = make_player("anna"), make_player("boris"), make_player("clara")
    for _ in range(MIN_GAMES):
        play_game([anna, boris, "easy"], [[0], [1], [2]])
    play_game([clara, "easy"], [[0], [1]])
    rate_unrated()
    assert names(Board.RATING) == ["anna", "boris", "Easy bot"]
    anna_row = leaderboard(Board.RATING, Period.ALL)[0]
    assert anna_row.games == MIN_GAMES and anna_row.provisional


def test_a_bot_level_is_ranked_by_the_same_minimum_of_games_in_the_period_as_a_person(
    make_player: MakePlayer,
) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    for _ in range(MIN_GAMES):
        play_game([anna, "easy"], [[0], [1]])
    for _ in range(MIN_GAMES - 1):
        play_game([boris, "strong"], [[0], [1]])
    rate_unrated()
    assert names(Board.RATING) == ["anna", "Easy bot"]
    easy = leaderboard(Board.RATING, Period.ALL)[1]
    assert easy.games == MIN_GAMES


def test_practice_games_count_on_no_board(make_player: MakePlayer) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    original = play_game([anna, boris], [[1], [0]])
    for _ in range(MIN_GAMES):
        practice = play_game([anna, "easy"], [[0], [1]], stake=0)
        practice.practice_of = original
        practice.save(update_fields=["practice_of"])
    rate_unrated()
    assert names(Board.RATING) == []
    assert names(Board.WIN_RATE) == []


def test_the_chip_board_orders_by_net_chips_and_ignores_grants(make_player: MakePlayer) -> None:
    anna, boris, clara = make_player("anna"), make_player("boris"), make_player("clara")
    play_game([anna, boris], [[1], [0]], stake=100)
    play_game([boris, clara], [[1], [0]], stake=10)
    rows = leaderboard(Board.CHIPS, Period.ALL)
    assert [(row.name, row.value) for row in rows] == [
        ("boris", "+90"),
        ("clara", "+10"),
        ("anna", "-100"),
    ]


def test_the_win_rate_board_orders_by_first_places_per_game(make_player: MakePlayer) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    for winner in [0, 0, 1, 0, 0, 1]:
        play_game([anna, boris], [[winner], [1 - winner]])
    rows = leaderboard(Board.WIN_RATE, Period.ALL)
    assert [(row.name, row.value, row.games) for row in rows] == [
        ("anna", "67%", 6),
        ("boris", "33%", 6),
    ]


def test_this_week_and_this_month_count_only_their_own_games(make_player: MakePlayer) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    with time_machine.travel(WEDNESDAY - timedelta(days=30), tick=False):
        play_game([anna, boris], [[0], [1]], stake=50)
    with time_machine.travel(WEDNESDAY - timedelta(days=5), tick=False):
        play_game([anna, boris], [[1], [0]], stake=20)
    with time_machine.travel(WEDNESDAY, tick=False):
        play_game([anna, boris], [[1], [0]], stake=5)
        week = leaderboard(Board.CHIPS, Period.WEEK)
        month = leaderboard(Board.CHIPS, Period.MONTH)
        ever = leaderboard(Board.CHIPS, Period.ALL)
    assert [(r.name, r.value) for r in week] == [("boris", "+5"), ("anna", "-5")]
    assert [(r.name, r.value) for r in month] == [("boris", "+25"), ("anna", "-25")]
    assert [(r.name, r.value) for r in ever] == [("anna", "+25"), ("boris", "-25")]


def test_the_page_highlights_the_players_own_row_and_refuses_nothing(
    client: Client, make_player: MakePlayer
) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    play_game([anna, boris], [[1], [0]])
    client.force_login(anna)
    page = client.get(reverse("leaderboard"), {"by": "chips", "period": "nonsense"})
    assert page.status_code == 200
    html = page.content.decode()
    rows = {row.split('data-player="')[1].split('"')[0]: row for row in html.split("<tr")[2:]}
    assert "leader me" in rows["anna"] and 'aria-current="true"' in rows["anna"]
    assert " me" not in rows["boris"]
    assert 'data-board="chips" data-period="all"' in html
    assert client.get(reverse("leaderboard"), {"by": "<script>"}).status_code == 200


def test_an_empty_leaderboard_says_so(client: Client, db: None) -> None:
    assert "Nobody is ranked here yet." in client.get(reverse("leaderboard")).content.decode()
