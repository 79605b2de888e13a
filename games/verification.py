"""Check an exported game (``durak-game/1``) from its seed to its payouts:
``python manage.py verify_game FILE``."""

from __future__ import annotations

from typing import Any

from games.engine import Game, deal_salt, fair_deck, seed_commitment, split_bank
from games.export import FORMAT
from games.replay import Mismatch, steps


def verify(record: dict[str, Any]) -> str:
    """One line saying what was checked; ``Mismatch`` naming the first difference."""
    if record.get("format") != FORMAT:
        raise Mismatch(f"format: {record.get('format')!r} is not {FORMAT!r}")
    try:
        check_seed(record)
        check_deal(record)
        game = None
        for step in steps(record):
            game = step.game
        assert game is not None
        check_result(record, game)
    except (KeyError, TypeError, ValueError, IndexError) as bad:
        raise Mismatch(f"the file is not a complete {FORMAT} record: {bad!r}") from None
    played = sum(1 for event in record["events"] if event["type"] != "seed")
    return (
        f"game #{record['id']} verified: the seed matches its hash, the deal follows from the "
        f"seeds, {played} events replay through the engine and the result is theirs"
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
