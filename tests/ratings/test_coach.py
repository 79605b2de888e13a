"""The coach marks the decisions that cost a player, judged from what their seat knew."""

from __future__ import annotations

import time
from typing import Any

from games.bots.turns import easy_player, to_act
from games.engine import Action, Deal, Game, Lead, Pass, Take
from ratings.coach import decisions, review


def record_of(deal: Deal, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The parts of an export (``games.records.export``) that a replay reads."""
    return {
        "deal": {
            "hands": [[card.code for card in hand] for hand in deal.hands],
            "talon": [card.code for card in deal.talon],
            "trump": deal.trump,
            "at": 0.0,
        },
        "rules": Game.start(deal).to_dict()["rules"],
        "events": [{"seq": seq, **event} for seq, event in enumerate(events, start=1)],
    }


def played(deal: Deal, moves: list[tuple[int, Action]]) -> dict[str, Any]:
    """The record of playing ``moves`` half a second apart, then letting the clock run."""
    game = Game.start(deal, now=0.0)
    events: list[dict[str, Any]] = []
    for step, (seat, action) in enumerate(moves, start=1):
        events += map(dict, game.apply(seat, action, step / 2))
    events += map(dict, game.tick(100.0))
    assert game.phase == "over"
    return record_of(deal, events)


def a_game_lost_by_a_take() -> dict[str, Any]:
    """Talon empty: the defender could beat 6♠ with 7♠ and be out; taking, they face the
    attacker's last card, a trump, and are the durak."""
    deal = Deal(hands=[["6S", "9H"], ["7S"]], talon=[], trump="H")
    moves: list[tuple[int, Action]] = [
        (0, Lead("6S")),
        (1, Take()),
        (0, Pass()),
        (0, Lead("9H")),
        (1, Take()),
    ]
    return played(deal, moves)


def test_the_coach_marks_a_take_that_lost_for_sure_with_the_beat_that_won() -> None:
    notes, judged = review(a_game_lost_by_a_take(), people={1}, budget=1.0)
    assert judged == 1
    [note] = notes
    assert note.played["type"] == "take" and note.seat == 1
    assert note.better == {**note.better, "type": "defend", "card": "7S", "target": "6S"}
    assert (note.played_chance, note.better_chance) == (0.0, 1.0)


def test_only_the_peoples_own_choices_among_several_moves_are_judged() -> None:
    record = a_game_lost_by_a_take()
    assert [d.seat for d in decisions(record, people={0, 1})] == [0, 1]
    assert [d.seat for d in decisions(record, people={0})] == [0]
    record["events"] = [{**event, "by": "autopilot"} for event in record["events"]]
    assert list(decisions(record, people={1})) == []


def test_a_whole_game_is_reviewed_within_its_budget() -> None:
    deal = Deal.shuffled(3, seed=11)
    record = record_of(deal, bots_game(deal))
    began = time.perf_counter()
    notes, judged = review(record, people={0, 1, 2}, budget=0.5)
    assert time.perf_counter() - began < 0.5 + 0.2
    assert judged > 0 and all(n.better_chance - n.played_chance > 0.2 for n in notes)


def bots_game(deal: Deal) -> list[dict[str, Any]]:
    """A whole game among easy bots, each answering a millisecond after the last action."""
    game = Game.start(deal, now=0.0)
    events: list[dict[str, Any]] = []
    now = 0.0
    while game.phase != "over" and len(events) < 2000:
        seat = to_act(game)
        if seat is None:
            now = max(now, game.deadline or now)
            events += map(dict, game.tick(now))
            continue
        now += 0.001
        events += map(dict, game.apply(seat, easy_player(game, seat), now))
    return events
