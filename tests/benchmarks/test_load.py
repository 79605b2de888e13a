"""The load benchmark's person reads the site's own screens: a template laid out anew must
not leave them unable to play their cards (a table then waits out every move timer)."""

from __future__ import annotations

import json
import random

import pytest

from accounts.models import User
from accounts.services import create_player
from benchmarks.load import Player
from games import broadcast, clock, play, snapshots, tables
from games.engine import Deal, Lead, Rules
from games.engine import Game as EngineGame
from games.models import Game, Table
from games.protocol import parse


def screen_of_seat_0(engine: EngineGame) -> tuple[str, tuple[int, int]]:
    """Seat 0's screen at a two-seat table against a bot, in the position `engine` holds."""
    anna = create_player("anna", "anna-plays-durak")
    table = tables.create_table(
        anna, name="Load", stake=0, seats=2, move_time=30, bots_allowed=True, private=False
    )
    tables.add_bot(table.pk, anna)
    Table.objects.filter(pk=table.pk).update(starts_at=clock.to_datetime(clock.now()))
    game = play.start(table.pk)
    assert game is not None
    Game.objects.filter(pk=game.pk).update(state=engine.to_dict(), bot_moves={})
    return snapshots.render(table.pk, 0), (game.pk, game.version)


@pytest.mark.django_db
def test_the_benchmarks_person_leads_a_card_when_the_screen_lets_them():
    deal = Deal(hands=[["6S", "6C", "9D"], ["7S", "TS", "JC"]], talon=["QD", "KH"])
    html, frame = screen_of_seat_0(EngineGame.start(deal, Rules(), now=clock.now(), attacker=0))
    move = Player(random.Random(0)).read(html, frame)
    assert move is not None and move["action"] == "lead" and move["version"] == frame[1]
    assert move["card"] in ("6S", "6C", "9D")


@pytest.mark.django_db
def test_the_benchmarks_person_beats_the_card_led_against_them():
    deal = Deal(hands=[["8S", "6C", "9D"], ["7S", "TS", "JC"]], talon=["QD", "KH"])
    engine = EngineGame.start(deal, Rules(), now=clock.now(), attacker=1)
    engine.apply(1, Lead("7S"), clock.now())
    html, frame = screen_of_seat_0(engine)
    move = Player(random.Random(0)).read(html, frame)
    assert move == {"action": "defend", "card": "8S", "target": "7S", "version": frame[1]}


@pytest.mark.django_db
def test_the_benchmarks_person_passes_over_a_frame_older_than_one_they_have_seen():
    deal = Deal(hands=[["6S", "6C", "9D"], ["7S", "TS", "JC"]], talon=["QD", "KH"])
    html, (game, version) = screen_of_seat_0(
        EngineGame.start(deal, Rules(), now=clock.now(), attacker=0)
    )
    person = Player(random.Random(0))
    person.newest = (game, version + 1)
    assert person.read(html, (game, version)) is None


@pytest.mark.django_db
def test_the_benchmarks_person_keeps_their_hand_through_the_changes_that_follow(
    monkeypatch, django_capture_on_commit_callbacks
):
    deal = Deal(hands=[["6S", "6C", "9D"], ["7S", "TS", "JC"]], talon=["QD", "KH"])
    html, (game, version) = screen_of_seat_0(
        EngineGame.start(deal, Rules(), now=clock.now(), attacker=0)
    )
    person = Player(random.Random(0))
    move = person.read(html, (game, version))
    assert move is not None and move["action"] == "lead"
    sent: list[list[broadcast.Message]] = []
    monkeypatch.setattr(broadcast, "send_all", sent.append)
    monkeypatch.setattr(broadcast.listeners, "listening", set)
    anna = User.objects.get(username="anna")
    with django_capture_on_commit_callbacks(execute=True):
        play.act(game, anna, parse(json.dumps(move)), version)
    change = next(
        message["html"]["*"]
        for batch in sent
        for group, message in batch
        if group.endswith("-seat-0") and message["type"] == "table.html"
    )
    assert '<section id="game"' not in change
    person.read(change, (game, version + 1))
    assert set(person.hand) == {"6S", "6C", "9D"} - {move["card"]}
