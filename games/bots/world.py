"""The engine game a determinization stands for, rebuilt through the engine's stored format."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from games.engine import Card, Game, Rules

from .knowledge import PLACE, Knowledge
from .sampling import World

STORED_FORMAT = 1
"""The version of ``Game.to_dict`` this module writes."""


def game_of(k: Knowledge, world: World, rules: Rules | None = None) -> Game:
    """The game as it would be if ``world`` were the truth, its timers counted from 0 s."""
    return Game.from_dict(state_of(k, world, rules or Rules()))


def state_of(k: Knowledge, world: World, rules: Rules) -> dict[str, Any]:
    """``Game.to_dict()`` of that game. What a view does not show is worked out: the defender's
    hand when they became defender (R9) is their hand now plus the cards they beat with, since
    nobody beats before a transfer."""
    beaten = sum(1 for _, defence in k.table if defence is not None)
    return {
        "format": STORED_FORMAT,
        "rules": asdict(rules),
        "seed": None,
        "trump": k.trump,
        "trump_card": None if k.trump_card is None else k.trump_card.code,
        "hands": [packed(hand) for hand in world.hands],
        "known": [packed(sorted(known, key=PLACE.__getitem__)) for known in k.known],
        "talon": packed(world.talon),
        "discarded": packed(k.discard),
        "set_aside": k.set_aside,
        "table": [[a.code, None if d is None else d.code] for a, d in k.table],
        "attacker": k.attacker,
        "defender": k.defender,
        "held": k.counts[k.defender] + beaten,
        "phase": k.phase,
        "taken": k.taken,
        "limit": k.limit,
        "passed": sorted(k.passed),
        "round": k.round,
        "finished": [list(group) for group in k.finished],
        "group_round": group_round(k),
        "durak": None,
        "timers": timers(k.phase, rules),
    }


def packed(cards: Iterable[Card]) -> str:
    return "".join(card.code for card in cards)


def group_round(k: Knowledge) -> int:
    """The round of the last finishing group, as far as the view tells: this one when the seat
    that led or the one that defends is in it, else taken for an earlier one (0). The engine
    only asks whether it is this round (R13: who finishes with whom)."""
    if k.finished and (k.attacker in k.finished[-1] or k.defender in k.finished[-1]):
        return k.round
    return 0


def timers(phase: str, rules: Rules) -> list[float | None]:
    """``[move_end, window_end, close_at]`` as if the phase had just begun. A view tells how
    long is left of them only to the screen's countdown; in a playout nobody waits anyway."""
    if phase in ("lead", "defend"):
        return [rules.move_time, None, None]
    if phase == "closing":
        return [None, rules.throw_in_window, None]
    return [None, None, None]
