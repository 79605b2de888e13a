"""The coach on the site: which games it reviews, where its notes are shown, and to whom."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game
from games.records.botmatch import play_bots
from ratings.coach import coach_game, pending
from ratings.models import CoachNote, CoachReview

MakePlayer = Callable[[str], User]


def noted(game: Game) -> None:
    review = CoachReview.objects.create(game=game, decisions=7, seconds=0.5)
    CoachNote.objects.create(
        game=review.game,
        seq=3,
        seat=0,
        played={"type": "take", "at": 1.0, "seat": 0, "auto": False},
        better={"type": "defend", "at": 1.0, "seat": 0, "card": "7S", "target": "6S"},
        played_chance=0.0,
        better_chance=1.0,
        deals=40,
    )


def test_only_finished_games_with_a_person_wait_for_the_coach(make_player: MakePlayer) -> None:
    anna = make_player("anna")
    [with_anna] = play_bots(1, 2, seat=anna)
    play_bots(1, 2)
    assert pending() == [with_anna.pk]
    review = coach_game(with_anna.pk, budget=0.5)
    assert review is not None and review.decisions == 0, "the autopilot's moves are not hers"
    assert pending() == [] and coach_game(with_anna.pk) is None


def test_run_coach_goes_through_what_is_pending_once(make_player: MakePlayer) -> None:
    anna = make_player("anna")
    games = play_bots(2, 2, seat=anna)
    out = StringIO()
    call_command("run_coach", "--once", "--budget", "0.2", stdout=out)
    assert [line.split(":")[0] for line in out.getvalue().splitlines()] == [
        f"game {game.pk}" for game in games
    ]
    assert CoachReview.objects.count() == 2


def test_the_game_page_shows_the_notes_in_the_readers_words(
    client: Client, make_player: MakePlayer
) -> None:
    anna = make_player("anna")
    [game] = play_bots(1, 2, seat=anna)
    noted(game)
    html = client.get(reverse("game_history", args=[game.pk])).content.decode()
    assert f'data-coach-url="/games/{game.pk}/coach.json"' in html
    assert "Played: anna takes — 0% not durak." in html
    assert "Better: anna beats 6♠ with 7♠ — 100% not durak." in html


def test_the_replay_gets_the_notes_by_event_number(client: Client, make_player: MakePlayer) -> None:
    anna = make_player("anna")
    [game] = play_bots(1, 2, seat=anna)
    noted(game)
    notes = client.get(reverse("game_coach", args=[game.pk])).json()["notes"]
    assert notes == [
        {"seq": 3, "text": "Coach: better anna beats 6♠ with 7♠ (100% against 0% not durak)"}
    ]


def test_a_private_tables_notes_stay_with_its_players(
    client: Client, make_player: MakePlayer
) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    [game] = play_bots(1, 2, seat=anna)
    game.table.private = True
    game.table.save()
    noted(game)
    client.force_login(boris)
    assert client.get(reverse("game_coach", args=[game.pk])).status_code == 404
    client.force_login(anna)
    assert client.get(reverse("game_coach", args=[game.pk])).status_code == 200
