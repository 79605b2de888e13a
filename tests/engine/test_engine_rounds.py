"""R11 (end of round), R12 (drawing), R13 (finishing and the durak), R15 (move time)."""

from __future__ import annotations

import pytest

from games.engine import (
    Defend,
    IllegalAction,
    Lead,
    Pass,
    Take,
    ThrowIn,
    Transfer,
    public_event,
)
from tests.support.engine_helpers import copy_of, hand, new


def test_r11_after_a_defence_by_a_finished_defender_the_next_player_attacks():
    game = new(["6S 9C", "7S", "8D 9D"], trump="H")
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    assert game.finished == [[1]] and game.deadline == 3.0
    game.tick(3.0)
    assert (game.round, game.attacker, game.defender) == (2, 2, 0)


def test_r11_after_a_take_the_one_who_took_skips_the_attack():
    game = new(["6S 9C", "7D 8D", "8S 9D", "TS TD"], trump="H")
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Take(), 2.0)
    game.tick(20.0)
    assert (game.attacker, game.defender) == (2, 3)


def test_r12_the_one_who_led_and_defended_last_draws_last():
    game = new(["6S 6H 9S 9D TC TD", "6C 7S 8D JC QS KS"], "7D 8C AS AC AD KH")
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Transfer("6C"), 2.0)
    game.apply(0, Defend("9S", "6S"), 3.0)
    game.apply(0, Defend("TC", "6C"), 4.0)
    events = game.tick(5.0)
    draws = [(e["seat"], e["cards"]) for e in events if e["type"] == "draw"]
    assert draws == [(1, ["7D"]), (0, ["8C", "AS", "AC"])]
    assert [str(card) for card in game.talon] == ["AD", "KH"]
    assert (game.attacker, game.defender) == (0, 1)  # the successful defender attacks


def test_r12_each_fills_up_before_the_next_and_the_trump_card_becomes_known():
    game = new(
        ["6S 6C 9C TC TD JC", "7S 8C AS AD QS KS", "9D 9S JD QD KD AC"], "7D 8D KH", attacker=0
    )
    game.apply(0, Lead(["6S", "6C"]), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    game.apply(1, Defend("8C", "6C"), 3.0)
    events = game.tick(4.0)
    draws = [e for e in events if e["type"] == "draw"]
    assert [(e["seat"], e["cards"], e["shown"]) for e in draws] == [
        (0, ["7D", "8D"], []),
        (1, ["KH"], ["KH"]),
    ]
    assert public_event(draws[1]) == {
        "type": "draw",
        "at": 4.0,
        "seat": 1,
        "count": 1,
        "shown": ["KH"],
    }
    assert game.view(0)["known"][1] == ["KH"] and game.view(None)["known"][1] == ["KH"]
    assert game.view(1)["known"][1] == []  # a seat's own entry is its hand
    game.apply(1, Lead("KH"), 5.0)
    assert game.view(0)["known"][1] == []


def test_r13_players_who_finish_in_the_same_round_form_one_group():
    game = new(["6S", "7S", "8D 9D"], trump="H")
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    assert game.finished == [[0, 1]]
    game.tick(3.0)
    assert game.phase == "over" and game.durak == 2 and game.finished == [[0, 1]]


def test_r13_the_attacker_who_plays_their_last_card_waits_for_the_defenders_answer():
    game = new(["6S", "7S 8S"], trump="H")
    game.apply(0, Lead("6S"), 1.0)
    assert game.finished == [[0]] and game.phase == "defend" and game.durak is None
    game.apply(1, Take(), 2.0)
    events = game.tick(3.0)
    assert events[-1] == {"type": "over", "at": 3.0, "durak": 1, "finished": [[0]]}
    assert game.phase == "over" and game.deadline is None
    assert game.taken is False and game.view(1)["taken"] is False
    assert copy_of(game).taken is False
    assert all(game.legal_actions(seat) == [] for seat in range(2))


def test_r13_a_throw_in_of_the_last_card_finishes_the_thrower_at_once():
    game = new(["6S 9C", "7S 7C AD", "6C"], trump="H")
    game.apply(0, Lead("6S"), 1.0)
    game.apply(2, ThrowIn("6C"), 2.0)
    assert game.finished == [[2]] and game.legal_actions(2) == []
    game.apply(1, Defend("7S", "6S"), 3.0)
    game.apply(1, Defend("7C", "6C"), 4.0)
    game.tick(5.0)
    assert (game.round, game.attacker, game.defender) == (2, 1, 0)
    game.apply(1, Lead("AD"), 6.0)
    game.apply(0, Take(), 7.0)
    game.tick(8.0)
    assert game.finished == [[2], [1]] and game.durak == 0


def test_r13_a_player_left_without_cards_when_the_talon_runs_out_finishes_at_the_draw():
    game = new(["6S 9C", "7S 7D AC", "6D"], "8D KH")
    game.apply(0, Lead("6S"), 1.0)
    game.apply(2, ThrowIn("6D"), 2.0)
    assert game.finished == []  # the talon still lasts
    game.apply(1, Defend("7S", "6S"), 3.0)
    game.apply(1, Defend("7D", "6D"), 4.0)
    events = game.tick(5.0)
    assert hand(game, 0) == "8D 9C KH" and game.finished == [[2]]
    assert {"type": "finish", "at": 5.0, "seat": 2, "place": 1} in events
    assert (game.round, game.attacker, game.defender) == (2, 1, 0)


def test_r13_a_round_that_empties_every_hand_is_a_draw():
    game = new(["6S", "7S 7C", "6C"], trump="H")
    game.apply(0, Lead("6S"), 1.0)
    game.apply(2, ThrowIn("6C"), 2.0)
    game.apply(1, Defend("7S", "6S"), 3.0)
    game.apply(1, Defend("7C", "6C"), 4.0)
    game.tick(5.0)
    assert game.phase == "over" and game.durak is None and game.finished == [[0, 1, 2]]


@pytest.mark.parametrize(
    "hands, talon, durak, finished",
    [
        (["", "7S"], "", 1, [[0]]),
        (["6S", "", ""], "", 0, [[1, 2]]),
        (["", "7S"], "8S 9H", 1, [[0]]),
        (["", ""], "", None, [[0, 1]]),
    ],
)
def test_r13_a_deal_in_which_fewer_than_two_seats_hold_cards_is_a_game_already_over(
    hands, talon, durak, finished
):
    for attacker in (None, 0, 1):
        game = new(hands, talon, trump="H" if not talon else None, attacker=attacker)
        assert (game.phase, game.durak, game.finished) == ("over", durak, finished)
        assert game.deadline is None and game.taken is False and game.tick(100.0) == []
        assert all(game.legal_actions(seat) == [] for seat in range(game.players))
        view = game.view(None)
        assert view["durak"] == durak and view["waiting_for"] is None
        assert copy_of(game) == game


def test_r15_the_attacker_who_does_not_lead_leads_the_lowest_non_trump():
    game = new(["6H 7H 9S 8C KD AS", "7S 8S 8D AC AD KC"], "JC QC KH", now=2.0)
    assert game.deadline == 32.0
    events = game.tick(32.0)
    assert events[0] == {
        "type": "lead",
        "at": 32.0,
        "seat": 0,
        "cards": ["8C"],
        "defender": 1,
        "auto": True,
    }
    assert game.deadline == 62.0


def test_r15_lowest_non_trump_ties_go_by_suit_and_only_trumps_lead_the_lowest_trump():
    game = new(["8C 8S 6H", "7S 8D AC"], trump="H")
    game.tick(30.0)
    assert [str(card) for card, _ in game.table] == ["8S"]
    only_trumps = new(["9H 7H", "7S 8D AC"], trump="H")
    only_trumps.tick(30.0)
    assert [str(card) for card, _ in only_trumps.table] == ["7H"]


def test_r15_the_defender_who_does_not_answer_takes():
    game = new(["6H 7H 9S 8C KD AS", "7S 8S 8D AC AD KC"], "JC QC KH")
    game.apply(0, Lead("9S"), 5.0)
    events = game.tick(35.0)
    assert events == [{"type": "take", "at": 35.0, "seat": 1, "auto": True}]


def test_r15_the_move_time_restarts_whenever_the_table_changes():
    game = new(["6S 6C 7D 9C TC JC", "7S 8S 8D AS AD KC", "6D 9D 9S JD QS KS"], "QC QD KH")
    game.apply(0, Lead(["6S", "6C"]), 5.0)
    assert game.deadline == 35.0
    game.apply(2, Pass(), 10.0)  # a pass changes nothing on the table
    assert game.deadline == 35.0
    game.apply(1, Defend("7S", "6S"), 20.0)
    assert game.deadline == 50.0
    game.apply(2, ThrowIn("6D"), 30.0)
    assert game.deadline == 60.0


def test_r15_a_transfer_gives_the_new_defender_a_full_move_time():
    game = new(["6S 6C 7D 9C TC JC", "6D 8S 8D AS AD KC", "7C 9D 9S JD QS KS"], "QC QD KH")
    game.apply(0, Lead("6S"), 5.0)
    game.apply(1, Transfer("6D"), 25.0)
    assert game.deadline == 55.0


def test_r15_apply_first_runs_the_deadlines_that_fell_due():
    game = new(["6H 7H 9S 8C KD AS", "7S 8S 8D AC AD KC"], "JC QC KH")
    game.apply(0, Lead("9S"), 5.0)
    refused = copy_of(game)
    events = game.apply(0, Pass(), 35.5)
    assert [(e["type"], e.get("auto")) for e in events] == [("take", True), ("pass", None)]
    assert game.taken and game.deadline == 36.0
    with pytest.raises(IllegalAction) as error:
        refused.apply(1, Defend("AC", "9S"), 35.5)
    assert [e["type"] for e in error.value.events] == ["take"] and refused.taken
