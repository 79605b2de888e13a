"""``Game.from_position``: a game set up at any moment of play, with what the rules fix worked
out (the phase, R9's limit, who is still in) and impossible positions refused."""

from __future__ import annotations

import pytest

from games.engine import Game, Phase, Rules
from tests.support.engine_helpers import cards, moments, state

NOT_GIVEN = ("seed", "timers", "group_round")
"""The clock, and the round of the last finishing group, which matters only when it is this one."""


def rebuilt(game: Game, now: float = 0.0) -> Game:
    known = [sorted(cards, key=lambda card: card.index) for cards in game.known]
    return Game.from_position(
        game.hands,
        game.talon,
        trump=game.trump,
        trump_card=game.trump_card,
        table=game.table,
        discarded=game.discarded,
        known=known,
        attacker=game.attacker,
        defender=game.defender,
        taken=game.taken,
        passed=game.passed,
        round=game.round,
        finished=game.finished,
        finished_this_round=bool(game.finished) and game.group_round == game.round,
        now=now,
    )


@pytest.mark.parametrize("seed", range(12))
def test_every_moment_of_a_game_is_set_up_again_from_where_its_cards_lie(seed: int) -> None:
    seen = 0
    for game in moments(seed, 2 + seed % 3):
        expected, got = state(game), state(rebuilt(game))
        for key in expected:
            if key not in NOT_GIVEN:
                assert got[key] == expected[key], (key, expected)
        this_round = expected["group_round"] == game.round
        assert (got["group_round"] == game.round) == this_round
        for seat in range(game.players):
            assert rebuilt(game).legal_actions(seat) == game.legal_actions(seat)
        seen += 1
    assert seen > 20


def test_the_phase_and_the_limit_are_worked_out_from_the_table() -> None:
    lead = Game.from_position([cards("6S 7S"), cards("8S 9S TS")], trump="H", attacker=0)
    assert (lead.phase, lead.defender, lead.limit) == (Phase.LEAD, 1, 3)
    defend = Game.from_position(
        [cards("7S"), cards("9S TS")], trump="H", table=[("6S", None)], attacker=0, round=2
    )
    assert (defend.phase, defend.limit, defend.discard) == (Phase.DEFEND, 2, 32)
    beaten = Game.from_position(
        [cards("7S"), cards("TS")], trump="H", table=[("6S", "9S")], attacker=0, round=2
    )
    assert (beaten.phase, beaten.limit) == (Phase.CLOSING, 2)
    taken = Game.from_position(
        [cards("7S"), cards("TS")], trump="H", table=[("6S", None)], attacker=0, taken=True
    )
    assert (taken.phase, taken.taken, taken.limit) == (Phase.CLOSING, True, 1)


def test_the_timers_run_as_if_the_phase_had_just_begun() -> None:
    rules = Rules(move_time=20.0, throw_in_window=8.0, close_delay=1.0)
    lead = Game.from_position(
        [cards("6S"), cards("7S")], trump="H", attacker=0, rules=rules, now=5.0
    )
    assert lead.deadline == 25.0 and lead.view(0)["waiting_for"] == "lead"
    window = Game.from_position(
        [cards("6C 7S"), cards("TS")], trump="H", table=[("6S", "9S")], attacker=0, now=5.0
    )
    assert window.deadline == 13.0 and window.view(0)["waiting_for"] == "window"
    closes = Game.from_position(
        [cards("8C"), cards("TS")], trump="H", table=[("6S", "9S")], attacker=0, now=5.0
    )
    assert closes.deadline == 6.0 and closes.view(0)["waiting_for"] == "close"


def test_a_position_with_fewer_than_two_seats_in_the_game_and_an_empty_table_is_over() -> None:
    game = Game.from_position(
        [[], cards("7S"), []], trump="H", attacker=1, finished=[[0], [2]], round=4
    )
    assert (game.phase, game.durak, game.deadline) == (Phase.OVER, 1, None)
    assert all(game.legal_actions(seat) == [] for seat in range(3))


def test_the_trump_card_of_an_end_game_is_known_in_its_hand_unless_told_otherwise() -> None:
    game = Game.from_position([cards("6S AH"), cards("7S")], trump_card="AH", attacker=0)
    assert game.view(1)["known"][0] == ["AH"] and game.trump == "H"


@pytest.mark.parametrize(
    "position, problem",
    [
        ({"hands": [cards("6S")]}, "2 to 4 players"),
        ({"hands": [cards("6S"), cards("6S")]}, "twice"),
        ({"table": [("6S", "7S")], "hands": [cards("7C"), cards("8S 7S")]}, "twice"),
        ({"table": [("7C", "6D")]}, "does not beat"),
        ({"table": [("7H", "AC")]}, "does not beat"),
        ({"table": [("6C", "7C")], "taken": True}, "unbeaten"),
        ({"table": [(c, None) for c in ("6C", "6D", "6H")]}, "limit"),
        ({"talon": cards("9D TH"), "finished": [[2]]}, "talon lasts"),
        ({"finished": [[0], [0]]}, "each seat once"),
        ({"known": [cards("AH"), [], []]}, "must be in it"),
        ({"known": [[]]}, "each of the 3 seats"),
        ({"passed": [1]}, "pass"),
        ({"attacker": 3}, "no seat"),
        ({"defender": 5}, "no seat"),
        ({"round": 0}, "from 1"),
        ({"finished_this_round": True}, "somebody finished"),
        ({"finished": [[1]], "table": [("6C", None)], "defender": 1}, "has finished"),
        ({"hands": [[], cards("7S"), cards("8S")], "talon": cards("9D TH")}, "holding cards"),
    ],
)
def test_an_impossible_position_is_refused_with_what_is_wrong(position, problem) -> None:
    setup = {
        "hands": [cards("6S 7S"), cards("8S 9S"), cards("TS JS")],
        "trump": None if position.get("talon") else "H",
        "attacker": 0,
        **position,
    }
    with pytest.raises(ValueError, match=problem):
        Game.from_position(**setup)
