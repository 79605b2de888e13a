"""What reaches a screen (views), what is stored (to_dict) and what is logged (events)."""

from __future__ import annotations

import json
import random
from typing import get_args, get_type_hints

import pytest

from games.engine import (
    EVENT_TYPES,
    Deal,
    Defend,
    DrawEvent,
    Event,
    Game,
    Lead,
    LeadEvent,
    Take,
    ThrowIn,
    View,
    action_of,
    public_event,
)
from tests.support.engine_helpers import copy_of, new, state

THREE = ["6S 6C 7D 9C TC JC", "7S 8S 8D AS AD KC", "7C 9D 9S JD QS KS"]
TALON = "QC QD KH"

VIEW_KEYS = {
    "seat", "players", "hand", "counts", "known", "table", "trump", "trump_card", "talon",
    "discard", "discarded", "set_aside", "phase", "round", "attacker", "defender", "roles",
    "in_game", "limit", "taken", "passed", "deadline", "waiting_for", "finished", "durak",
}  # fmt: skip


def test_view_holds_the_seats_hand_and_only_public_knowledge():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    view = game.view(2)
    assert set(view) == VIEW_KEYS and json.loads(json.dumps(view)) == view
    assert view["hand"] == ["7C", "9S", "9D", "JD", "QS", "KS"]  # lowest first
    assert view["counts"] == [5, 5, 6] and view["table"] == [["6S", "7S"]]
    assert (view["trump"], view["trump_card"], view["talon"]) == ("H", "KH", 3)
    assert view["roles"] == ["attacker", "defender", "attacker"]
    assert (view["phase"], view["deadline"], view["waiting_for"]) == ("closing", 10.0, "window")
    assert view["known"] == [[], [], []] and view["discarded"] == []
    spectator = game.view(None)
    assert spectator["hand"] == [] and spectator["seat"] is None
    with pytest.raises(ValueError):
        game.view(3)


def test_the_view_type_names_every_key_of_a_view():
    assert View.__required_keys__ == VIEW_KEYS and not View.__optional_keys__


def test_view_lists_picked_up_cards_as_known_until_they_are_played():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    game.apply(2, ThrowIn("7C"), 3.0)
    game.apply(1, Take(), 4.0)
    game.tick(20.0)
    assert game.view(0)["known"] == [[], ["6S", "7S", "7C"], []]
    assert game.view(None)["known"] == [[], ["6S", "7S", "7C"], []]
    assert game.view(1)["known"] == [[], [], []]
    game.apply(2, Lead("9D"), 21.0)
    game.apply(0, Take(), 22.0)
    game.tick(40.0)
    assert (game.attacker, game.defender) == (1, 2)
    game.apply(1, Lead("6S"), 41.0)
    assert game.view(2)["known"][1] == ["7S", "7C"]


def test_view_after_the_game_names_the_durak():
    game = new(["6S", "7S 8S"], trump="H")
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    game.tick(3.0)
    view = game.view(None)
    assert view["roles"] == ["finished", "durak"] and view["durak"] == 1
    assert view["finished"] == [[0]] and view["deadline"] is None and view["waiting_for"] is None


def test_to_dict_is_small_versioned_json_and_comes_back_equal():
    game = Game.start(Deal.shuffled(4, 3))
    data = game.to_dict()
    assert data["format"] == 1 and len(json.dumps(data)) < 1000
    again = copy_of(game)
    assert again == game and state(again) == state(game)
    assert again.view(1) == game.view(1) and again.legal_actions(0) == game.legal_actions(0)
    with pytest.raises(ValueError):
        Game.from_dict({**data, "format": 99})


def test_public_events_hide_drawn_cards_but_not_the_trump_card():
    draw: DrawEvent = {
        "type": "draw", "at": 1.0, "seat": 0, "count": 2, "cards": ["6S", "KH"], "shown": ["KH"],
    }  # fmt: skip
    assert public_event(draw) == {
        "type": "draw", "at": 1.0, "seat": 0, "count": 2, "shown": ["KH"],
    }  # fmt: skip
    lead: LeadEvent = {
        "type": "lead", "at": 1.0, "seat": 0, "cards": ["6S"], "defender": 1, "auto": False,
    }  # fmt: skip
    assert public_event(lead) == lead


def test_the_players_actions_in_the_events_replay_the_game():
    game = Game.start(Deal.shuffled(3, 11))
    replayed = Game.start(Deal.shuffled(3, 11))
    rng = random.Random(5)
    now = 0.0
    events = []
    while game.phase != "over":
        now += rng.choice([0.5, 2.0, 40.0])  # 40 s: someone runs out of time
        events += game.tick(now)
        movers = [seat for seat in range(3) if game.legal_actions(seat)]
        if movers:
            seat = rng.choice(movers)
            events += game.apply(seat, rng.choice(game.legal_actions(seat)), now)
    assert any(event.get("auto") for event in events)
    for event in events:
        taken = action_of(event)
        if taken is not None:
            replayed.apply(*taken, event["at"])
    replayed.tick(now)
    assert replayed == game


def test_every_event_has_the_keys_its_kind_declares():
    kinds = {get_args(get_type_hints(kind)["type"])[0]: kind for kind in get_args(Event)}
    assert set(kinds) == EVENT_TYPES
    seen = set()
    for seed in range(4):
        players = 2 + seed % 3
        game = Game.start(Deal.shuffled(players, seed))
        rng = random.Random(seed)
        now = 0.0
        events = []
        while game.phase != "over":
            now += rng.choice([0.5, 2.0, 40.0])
            events += game.tick(now)
            movers = [seat for seat in range(players) if game.legal_actions(seat)]
            if movers:
                seat = rng.choice(movers)
                events += game.apply(seat, rng.choice(game.legal_actions(seat)), now)
        for event in events:
            kind = kinds[event["type"]]
            assert set(event) == kind.__required_keys__ | kind.__optional_keys__, event
            seen.add(event["type"])
    assert seen == EVENT_TYPES
