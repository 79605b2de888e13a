"""Ratings move by finishing place, as openskill's Plackett–Luce model says."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from openskill.models import PlackettLuce

from accounts.models import User
from games.models import Game
from ratings.models import Rating, RatingChange
from ratings.services import rate_game, rate_unrated
from ratings.skill import Skill
from tests.ratings.conftest import play_game, stop_game

MakePlayer = Callable[[str], User]


def skill_of(player: User) -> Skill:
    rating = Rating.objects.get(player=player)
    return Skill(rating.mu, rating.sigma)


def test_the_winner_goes_up_and_the_durak_goes_down(make_player: MakePlayer) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    assert rate_game(play_game([anna, boris], [[1], [0]]).pk)
    assert skill_of(boris).mu > Skill.new().mu > skill_of(anna).mu
    assert skill_of(anna).sigma < Skill.new().sigma


def test_a_four_player_game_with_a_tie_matches_openskill_called_directly(
    make_player: MakePlayer,
) -> None:
    anna, boris, clara, dima = (make_player(n) for n in ("anna", "boris", "clara", "dima"))
    rate_game(play_game([anna, boris], [[0], [1]]).pk)
    before = [skill_of(anna), skill_of(boris), Skill.new(), Skill.new()]
    rate_game(play_game([anna, boris, clara, dima], [[2], [0, 3], [1]]).pk)
    model = PlackettLuce()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    expected = model.rate(teams, ranks=[2.0, 4.0, 1.0, 2.0])
    for player, team in zip([anna, boris, clara, dima], expected, strict=True):
        assert skill_of(player).mu == pytest.approx(team[0].mu)
        assert skill_of(player).sigma == pytest.approx(team[0].sigma)


def test_a_stopped_game_changes_no_rating(make_player: MakePlayer) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    assert not rate_game(stop_game([anna, boris]).pk)
    assert not Rating.objects.exists()


def practice_of(game: Game, seats: list[User | str], groups: list[list[int]]) -> Game:
    practice = play_game(seats, groups, stake=0)
    practice.practice_of = game
    practice.save(update_fields=["practice_of"])
    return practice


def test_a_practice_game_changes_no_rating(make_player: MakePlayer) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    original = play_game([anna, boris], [[0], [1]])
    practice = practice_of(original, [anna, "easy"], [[0], [1]])
    assert not rate_game(practice.pk)
    assert rate_unrated() == 1
    assert not RatingChange.objects.filter(game=practice).exists()
    assert Rating.objects.get(player=anna).games == 1


def test_a_game_is_rated_once(make_player: MakePlayer) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    game = play_game([anna, boris], [[0], [1]])
    assert rate_game(game.pk)
    once = skill_of(anna)
    assert not rate_game(game.pk)
    assert rate_unrated() == 0
    assert skill_of(anna) == once
    assert Rating.objects.get(player=anna).games == 1
    assert RatingChange.objects.filter(game=game).count() == 2


def test_bots_are_rated_by_level_and_two_bots_of_a_level_share_the_mean(
    make_player: MakePlayer,
) -> None:
    anna = make_player("anna")
    rate_game(play_game([anna, "strong", "easy", "easy"], [[1], [0], [2], [3]]).pk)
    easy = Rating.objects.get(bot_level="easy")
    changes = RatingChange.objects.filter(rating=easy)
    assert changes.count() == 2 and easy.games == 1
    assert easy.mu == pytest.approx(sum(c.mu_after for c in changes) / 2)
    assert Rating.objects.get(bot_level="strong").mu > Skill.new().mu > easy.mu


def test_unrated_games_are_rated_in_the_order_they_finished(make_player: MakePlayer) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    play_game([anna, boris], [[0], [1]])
    play_game([anna, boris], [[1], [0]])
    assert rate_unrated() == 2
    first, second = RatingChange.objects.filter(rating__player=anna).order_by("game_id")
    assert second.mu_before == first.mu_after


def test_a_rating_reads_as_points_with_a_margin() -> None:
    assert (Skill.new().points, Skill.new().margin) == (1000, 667)
    assert Skill(30.0, 2.0).points == 1200
