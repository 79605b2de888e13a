"""Exact positions for the engine tests: hands and talon written as card codes."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import Action, Card, Deal, Game, IllegalAction, Phase, Rules


def cards(text: str) -> list[Card]:
    return [Card.parse(code) for code in text.split()]


def new(
    hands: list[str],
    talon: str = "",
    trump: str | None = None,
    attacker: int | None = 0,
    rules: Rules | None = None,
    now: float = 0.0,
) -> Game:
    deal = Deal(hands=[cards(h) for h in hands], talon=cards(talon), trump=trump)
    return Game.start(deal, rules or Rules(), now=now, attacker=attacker)


def hand(game: Game, seat: int) -> str:
    return " ".join(sorted(str(card) for card in game.hands[seat]))


def table(game: Game) -> list[tuple[str, str | None]]:
    return [(str(a), None if d is None else str(d)) for a, d in game.table]


def state(game: Game) -> dict[str, Any]:
    """The stored state as JSON would bring it back."""
    return json.loads(json.dumps(game.to_dict()))


def copy_of(game: Game) -> Game:
    return Game.from_dict(state(game))


def refuse(game: Game, seat: int, action: Action, now: float, rule: str) -> str:
    """The action is refused naming ``rule``, and the game is exactly as it was."""
    before = state(game)
    with pytest.raises(IllegalAction) as refused:
        game.apply(seat, action, now)
    reason = str(refused.value)
    assert f"{rule})" in reason or f"{rule}," in reason, reason
    assert state(game) == before
    return reason


def moments(seed: int, players: int, wait: float = 0.1) -> Iterator[Game]:
    """Every moment of a game played by random actions of random seats, the end included; now
    and then (with chance ``wait``) nobody acts and the clock runs to the next deadline. The
    game must not be changed by the caller."""
    rng = random.Random(seed)
    game = Game.start(Deal.shuffled(players, seed))
    now = 0.0
    while True:
        yield game
        if game.phase == Phase.OVER:
            return
        seats = [seat for seat in range(players) if game.legal_actions(seat)]
        if not seats or rng.random() < wait:
            deadline = game.deadline
            assert deadline is not None
            now = max(now, deadline)
            game.tick(now)
            continue
        seat = rng.choice(seats)
        now += 0.1
        game.apply(seat, rng.choice(game.legal_actions(seat)), now)
