"""The engine game a determinization stands for, set up through ``Game.from_position``."""

from __future__ import annotations

from games.engine import Game, Rules

from .knowledge import Knowledge
from .sampling import World

DEFAULT_RULES = Rules()


def game_of(k: Knowledge, world: World, rules: Rules = DEFAULT_RULES) -> Game:
    """The game as it would be if ``world`` were the truth, its timers counted from 0 s."""
    return Game.from_position(
        world.hands,
        world.talon,
        trump=k.trump,
        trump_card=k.trump_card,
        table=k.table,
        discarded=k.discard,
        known=k.known,
        attacker=k.attacker,
        defender=k.defender,
        taken=k.taken,
        passed=k.passed,
        round=k.round,
        finished=k.finished,
        finished_this_round=finished_this_round(k),
        rules=rules,
    )


def finished_this_round(k: Knowledge) -> bool:
    """Whether the last finishing group is this round's, as far as the view tells: when the seat
    that led or the one that defends is in it (R13: who finishes with whom)."""
    return bool(k.finished) and (k.attacker in k.finished[-1] or k.defender in k.finished[-1])
