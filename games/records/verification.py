"""Check an exported game (``durak-game/1``) from its seed to its payouts:
``python manage.py verify_game FILE``."""

from __future__ import annotations

import itertools
from typing import Any

from games.engine import EVENT_TYPES, Game, Phase, deal_salt, fair_deck, seed_commitment, split_bank
from games.records import signature
from games.records.export import FORMAT
from games.records.record_shape import check_shape
from games.records.replay import Mismatch, steps
from games.table.play import ENDLESS_ROUNDS

ENDINGS = ("stopped", "aborted")


def verify(record: dict[str, Any]) -> str:
    """One line saying what was checked; ``Mismatch`` naming the first difference."""
    if record.get("format") != FORMAT:
        raise Mismatch(f"format: {str(record.get('format'))[:40]!r} is not {FORMAT!r}")
    check_shape(record)
    try:
        check_seed(record)
        check_deal(record)
        check_order(record["events"], record)
        game = None
        for step in steps(record):
            game = step.game
        assert game is not None
        check_ending(record["events"], game)
        check_result(record, game)
    except (KeyError, TypeError, ValueError, IndexError, ArithmeticError) as bad:
        raise Mismatch(f"the file is not a complete {FORMAT} record: {bad!r}") from None
    signature.check(record)
    played = sum(1 for event in record["events"] if event["type"] != "seed")
    return (
        f"game #{record['id']} verified: the seed matches its hash, the deal follows from the "
        f"seeds, {played} events replay through the engine, the result is theirs and the "
        "site's signature holds"
    )


def check_order(events: list[dict[str, Any]], record: dict[str, Any]) -> None:
    """The deal first, the seed last, ``seq`` strictly increasing, ``at`` never decreasing;
    between them only the engine's events and at most one ``stopped`` or ``aborted``."""
    if not events or events[0]["type"] != "deal":
        raise Mismatch("events: the first is not the deal")
    if events[0]["seed_hash"] != record["seed_hash"] or events[0]["at"] != record["deal"]["at"]:
        raise Mismatch("event 1 (deal): not the deal of this seed at this time")
    if events[-1]["type"] != "seed" or events[-1]["seed"] != record["seed"]:
        raise Mismatch("events: the last is not the revealed seed")
    for before, event in itertools.pairwise(events):
        if event["seq"] <= before["seq"]:
            raise Mismatch(f"event {event['seq']} ({event['type']}): seq after {before['seq']}")
        if event["at"] < before["at"]:
            raise Mismatch(
                f"event {event['seq']} ({event['type']}): at {event['at']} is before "
                f"the {before['at']} of event {before['seq']}"
            )
    middle = events[1:-1]
    for place, event in enumerate(middle):
        if event["type"] in EVENT_TYPES:
            continue
        if event["type"] in ENDINGS and place == len(middle) - 1:
            continue
        raise Mismatch(f"event {event['seq']} ({event['type']}): the site writes none there")


def check_ending(events: list[dict[str, Any]], game: Game) -> None:
    """A game the site ended early was still running then; a game stopped for bots alone had
    gone on past the rounds such a game may last."""
    ending = events[-2]
    if ending["type"] not in ENDINGS:
        return
    if game.phase == Phase.OVER:
        raise Mismatch(f"event {ending['seq']} ({ending['type']}): the game was already over")
    if ending["type"] == "stopped" and not ending["round"] == game.round > ENDLESS_ROUNDS:
        raise Mismatch(
            f"event {ending['seq']} (stopped): in round {ending['round']}, the replay is in "
            f"round {game.round} and a game stops only after {ENDLESS_ROUNDS}"
        )


def check_seed(record: dict[str, Any]) -> None:
    made = seed_commitment(record["seed"].encode())
    if made != record["seed_hash"]:
        raise Mismatch(f"seed: its SHA-256 is {made}, not the published {record['seed_hash']}")


def check_deal(record: dict[str, Any]) -> None:
    salted = deal_salt(record["practice_of"] or record["id"], record["client_seeds"])
    cards = [card.code for card in fair_deck(record["seed"].encode(), salted)]
    hands = record["deal"]["hands"]
    if len(record["client_seeds"]) != len(hands) or len(record["players"]) != len(hands):
        raise Mismatch(f"deal: {len(hands)} hands for {len(record['players'])} players")
    for seat, hand in enumerate(hands):
        should = cards[6 * seat : 6 * seat + 6]
        if hand != should:
            raise Mismatch(
                f"deal: seat {seat} holds {' '.join(hand)}, the seeds deal {' '.join(should)}"
            )
    should = cards[6 * len(hands) :]
    if record["deal"]["talon"] != should:
        raise Mismatch(
            f"deal: the talon is {' '.join(record['deal']['talon'])}, "
            f"the seeds give {' '.join(should)}"
        )


def check_result(record: dict[str, Any], game: Game) -> None:
    types = {event["type"] for event in record["events"]}
    players = len(record["players"])
    stake = int(record["rules"]["stake"])
    expected: dict[str, Any]
    if "aborted" in types:
        expected = {
            "outcome": "aborted",
            "groups": [],
            "durak": None,
            "places": [None] * players,
            "payouts": [stake] * players,
        }
    else:
        groups = game.standings()
        outcome = "stopped" if "stopped" in types else "finished"
        if outcome == "finished" and game.phase != "over":
            raise Mismatch("result: the events end before the game does")
        places: list[int | None] = [None] * players
        place = 1
        for group in groups:
            for seat in group:
                places[seat] = place
            place += len(group)
        expected = {
            "outcome": outcome,
            "groups": groups,
            "durak": game.durak,
            "places": places,
            "payouts": split_bank(stake * players, groups, players),
        }
    for key, value in expected.items():
        if record["result"][key] != value:
            raise Mismatch(
                f"result: {key} recorded {record['result'][key]}, the replay gives {value}"
            )
