"""Games as compact, JSON-safe dicts for the database, versioned so stored games stay readable.

Format 1: cards are two-letter codes, lists of cards one packed string ("6S7HTD"); the table
is a list of ``[attack, defence_or_None]``; timers are the absolute times of R10 and R15.
Everything derivable (the ranks on the table, who is still in, the discard count) is left out.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from .cards import RANK_BITS, Card, bits_of, cards_in, packed, unpacked
from .phase import Phase
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

FORMAT = 1


def to_dict(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rules": asdict(game.rules),
        "seed": game.seed,
        "trump": game.trump,
        "trump_card": None if game.trump_card is None else game.trump_card.code,
        "hands": [packed(cards_in(bits)) for bits in game.hand_bits],
        "known": [packed(cards_in(bits)) for bits in game.known_bits],
        "talon": packed(game.talon),
        "discarded": packed(game.discarded),
        "set_aside": game.set_aside,
        "table": [
            [attack.code, None if defence is None else defence.code]
            for attack, defence in zip(game.attacks, game.defences, strict=True)
        ],
        "attacker": game.attacker,
        "defender": game.defender,
        "held": game.held,
        "phase": game.phase.value,
        "taken": game.taken,
        "limit": game.limit,
        "passed": sorted(game.passed),
        "round": game.round,
        "finished": [list(group) for group in game.finished],
        "group_round": game.group_round,
        "durak": game.durak,
        "timers": [game.move_end, game.window_end, game.close_at],
    }


def from_dict(cls: type[Game], data: dict[str, Any]) -> Game:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown game format {data.get('format')!r}; this engine reads {FORMAT}")
    game = cls.__new__(cls)
    game.rules = Rules(**data["rules"])
    game.seed = data["seed"]
    game.trump = data["trump"]
    game.trump_card = None if data["trump_card"] is None else Card.parse(data["trump_card"])
    game.hand_bits = [bits_of(unpacked(hand)) for hand in data["hands"]]
    game.players = len(game.hand_bits)
    game.known_bits = [bits_of(unpacked(known)) for known in data["known"]]
    game.talon = unpacked(data["talon"])
    game.discarded = unpacked(data["discarded"])
    game.set_aside = data["set_aside"]
    game.attacks = [Card.parse(attack) for attack, _ in data["table"]]
    game.defences = [None if d is None else Card.parse(d) for _, d in data["table"]]
    game.throwable = 0
    for card in game.attacks + game.defences:
        if card is not None:
            game.throwable |= RANK_BITS[card.rank]
    game.unbeaten = game.defences.count(None)
    game.attacker = data["attacker"]
    game.defender = data["defender"]
    game.held = data["held"]
    game.phase = Phase(data["phase"])
    game.taken = data["taken"]
    game.limit = data["limit"]
    game.passed = set(data["passed"])
    game.round = data["round"]
    game.finished = [list(group) for group in data["finished"]]
    game.group_round = data["group_round"]
    game.durak = data["durak"]
    out = {seat for group in game.finished for seat in group}
    game.in_game = [seat not in out for seat in range(game.players)]
    game.move_end, game.window_end, game.close_at = data["timers"]
    return game
