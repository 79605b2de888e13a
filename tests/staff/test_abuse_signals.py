"""The abuse signals find planted chip farming, frequent time-outs and a player who always
takes, among ordinary games played through the real services by `play_bots`."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import create_player
from games.models import Game, GameEvent, Table
from games.records.botmatch import play_bots
from staff import abuse

pytestmark = pytest.mark.usefixtures("ledger_audit")


def record_game(
    results: Sequence[tuple[User, int, int]], stake: int = 100, events: Sequence[dict] = ()
) -> Game:
    """A finished game with one (player, place, payout) per seat and the given events."""
    table = Table.objects.create(name="Planted", stake=stake, seats=len(results))
    game = Game.objects.create(
        table=table,
        state={},
        seed="1",
        seed_hash="h",
        stake=stake,
        bank=stake * len(results),
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
    )
    for seat, (player, place, payout) in enumerate(results):
        game.players.create(seat=seat, player=player, stake=stake, place=place, payout=payout)
    for seq, event in enumerate(events, start=1):
        GameEvent.objects.create(
            game=game, seq=seq, type=event["type"], seat=event.get("seat"), data=event
        )
    return game


@pytest.fixture
def dmitri(db: None) -> User:
    return create_player("dmitri", "dmitri-plays-durak")


@pytest.fixture
def ordinary_games(anna: User) -> list[Game]:
    return play_bots(2, 2, seat=anna, stake=10) + play_bots(1, 3, stake=50)


def test_a_planted_chip_farming_pair_is_found_with_its_figures_and_games(
    ordinary_games, anna, boris, clara, dmitri
):
    farmed = [record_game([(boris, 2, 0), (clara, 1, 200)]) for _ in range(5)]
    farmed.append(record_game([(boris, 1, 200), (clara, 2, 0)]))
    for winner, loser in [(anna, dmitri), (dmitri, anna)] * 3:
        record_game([(winner, 1, 200), (loser, 2, 0)])
    record_game([(boris, 2, 0), (dmitri, 1, 0)], stake=0)
    found = abuse.signals()
    assert found.games_read == len(ordinary_games) + 13
    assert [(pair.winner, pair.loser) for pair in found.farming] == [(clara, boris)]
    pair = found.farming[0]
    assert (pair.games, pair.winner_ahead, pair.loser_ahead) == (6, 5, 1)
    assert (pair.to_winner, pair.to_loser, pair.lopsided_percent) == (500, 100, 83)
    assert sorted(pair.game_ids) == sorted(game.pk for game in farmed)


def test_pairs_who_met_too_few_times_are_not_a_signal(boris, clara):
    for _ in range(abuse.FARMING_MIN_GAMES - 1):
        record_game([(boris, 2, 0), (clara, 1, 200)])
    assert abuse.signals().farming == []


def test_a_player_who_often_runs_out_of_time_is_found(ordinary_games, anna, boris, clara):
    slow = [
        {"type": "lead", "seat": 0, "auto": True, "cards": ["6S"]},
        {"type": "take", "seat": 0, "auto": True},
        {"type": "take", "seat": 1, "auto": False},
    ]
    games = [record_game([(boris, 2, 0), (clara, 1, 200)], events=slow) for _ in range(3)]
    found = abuse.signals()
    assert [record.player for record in found.timeouts] == [boris]
    record = found.timeouts[0]
    assert (record.games, record.timeouts, record.away_games) == (3, 6, 3)
    assert sorted(record.game_ids) == sorted(game.pk for game in games)


def test_a_player_who_always_takes_is_found(ordinary_games, boris, clara):
    rounds = []
    for number in range(abuse.TAKING_MIN_DEFENCES):
        rounds += [
            {"type": "round", "round": number + 1, "attacker": 1, "defender": 0},
            {"type": "take", "seat": 0, "auto": False},
        ]
    rounds.append({"type": "round", "round": 99, "attacker": 0, "defender": 1})
    record_game([(boris, 2, 0), (clara, 1, 0)], stake=0, events=rounds)
    found = abuse.signals()
    assert [(taker.player, taker.defences, taker.takes) for taker in found.takers] == [
        (boris, abuse.TAKING_MIN_DEFENCES, abuse.TAKING_MIN_DEFENCES)
    ]


def test_ordinary_games_raise_no_signal(ordinary_games):
    found = abuse.signals()
    assert (found.farming, found.timeouts, found.takers) == ([], [], [])


def test_the_signals_page_shows_the_figures_and_links_the_games(staff_browser, boris, clara):
    games = [record_game([(boris, 2, 0), (clara, 1, 200)]) for _ in range(5)]
    html = staff_browser.get(reverse("staff_signals")).content.decode()
    assert 'data-signal="farming" data-winner="clara" data-loser="boris"' in html
    assert "500 (100%)" in html
    for game in games:
        assert reverse("game_history", args=[game.pk]) in html
