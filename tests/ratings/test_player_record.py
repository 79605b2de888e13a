"""Honest statistics: finished games and the ledger, stopped games apart."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from django.urls import reverse

from accounts.models import User
from ratings.statistics import record_of
from tests.ratings.conftest import play_game, stop_game

MakePlayer = Callable[[str], User]


def test_a_stopped_game_counts_apart_and_costs_nothing(
    make_player: MakePlayer, ledger_audit: None
) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    play_game([anna, boris], [[1], [0]], stake=150)
    stop_game([anna, boris], stake=50)
    record = record_of(anna)
    assert (record.played, record.first_places, record.durak, record.stopped) == (1, 0, 1, 1)
    assert record.net_chips == -150


def test_first_places_draws_and_net_chips_over_several_games(
    make_player: MakePlayer, ledger_audit: None
) -> None:
    anna, boris, clara = make_player("anna"), make_player("boris"), make_player("clara")
    play_game([anna, boris], [[0], [1]])
    play_game([anna, boris, clara], [[1], [0], [2]])
    play_game([anna, boris, clara], [[2], [0, 1]])
    record = record_of(anna)
    assert (record.played, record.first_places, record.durak, record.draws) == (3, 1, 0, 1)
    assert record.net_chips == (20 - 10) + (6 - 10) + (3 - 10)
    assert record.average_place == {2: 1.0, 3: 2.0}
    assert record.win_rate == 1 / 3


def test_transfers_and_cards_taken_are_counted_from_the_players_own_seat(
    make_player: MakePlayer,
) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    events = [
        {"type": "transfer", "seat": 0, "card": "7H", "to": 1},
        {"type": "transfer", "seat": 1, "card": "7S", "to": 0},
        {"type": "transfer", "seat": 0, "card": "7C", "to": 1},
        {"type": "pick_up", "seat": 1, "cards": ["7H", "7S", "7C"]},
        {"type": "pick_up", "seat": 0, "cards": ["9D"]},
    ]
    play_game([anna, boris], [[0], [1]], stake=0, events=events)
    assert (record_of(anna).transfers, record_of(anna).cards_taken) == (2, 1)
    assert (record_of(boris).transfers, record_of(boris).cards_taken) == (1, 3)


def test_a_new_player_has_an_empty_record(make_player: MakePlayer) -> None:
    record = record_of(make_player("anna"))
    assert (record.played, record.net_chips, record.average_place, record.win_rate) == (
        0,
        0,
        {},
        None,
    )


def test_the_public_profile_shows_the_record_and_the_rating(
    client: Client, make_player: MakePlayer
) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    play_game([anna, boris], [[0], [1]])
    stop_game([anna, boris])
    page = client.get(reverse("player_profile", args=["boris"])).content.decode()
    assert 'data-stat="played">1<' in page
    assert 'data-stat="durak">1<' in page
    assert 'data-stat="stopped">1<' in page
    assert 'data-stat="net">-10<' in page
    assert "Rating over time" in page
    assert "Balance over time" not in page


def test_the_own_profile_draws_the_balance_over_time(
    client: Client, make_player: MakePlayer
) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    play_game([anna, boris], [[0], [1]])
    client.force_login(anna)
    page = client.get(reverse("profile")).content.decode()
    assert "Balance over time" in page
    assert "<polyline" in page
