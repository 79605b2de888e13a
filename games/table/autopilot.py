"""Who plays a seat when its person does not: bots, and the autopilot of R15/R16.

A seat played by a bot gets its move due at a random moment 1.5-3 s after it has
something to do (R16). Having acted, it waits for the cards on the table to change
before it is asked again; a bot that passed is asked again only once its pass is void
(a new rank, a take or a transfer), as a person's pass would be.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.bots import Level, choose
from games.engine import Game, Phase

BOT_DELAY = (1.5, 3.0)


@dataclass
class BotSchedule:
    """Due times by seat, and the table version at which each seat last acted."""

    due: dict[int, float] = field(default_factory=dict)
    acted: dict[int, str] = field(default_factory=dict)

    @classmethod
    def load(cls, data: dict[str, Any]) -> BotSchedule:
        return cls(
            due={int(seat): float(at) for seat, at in data.get("due", {}).items()},
            acted={int(seat): str(key) for seat, key in data.get("acted", {}).items()},
        )

    def dump(self) -> dict[str, Any]:
        return {
            "due": {str(seat): at for seat, at in self.due.items()},
            "acted": {str(seat): key for seat, key in self.acted.items()},
        }

    def earliest(self) -> float | None:
        return min(self.due.values(), default=None)

    def due_seats(self, now: float) -> list[int]:
        return sorted(
            (seat for seat, at in self.due.items() if at <= now), key=self.due.__getitem__
        )

    def refresh(self, game: Game, autopiloted: set[int], now: float, rng: random.Random) -> None:
        key = table_key(game)
        for seat in range(game.players):
            wants = (
                seat in autopiloted
                and game.phase != Phase.OVER
                and seat not in game.passed
                and self.acted.get(seat) != key
                and bool(game.legal_actions(seat))
            )
            if not wants:
                self.due.pop(seat, None)
            elif seat not in self.due:
                self.due[seat] = now + rng.uniform(*BOT_DELAY)

    def record_move(self, seat: int, key: str) -> None:
        self.due.pop(seat, None)
        self.acted[seat] = key


def table_key(game: Game) -> str:
    """Changes exactly when the cards on the table change (a new round included)."""
    cards = ",".join(f"{attack}{defence or ''}" for attack, defence in game.table)
    return f"{game.round}|{int(game.taken)}|{cards}"


def decide(game: Game, seat: int, level: Level, rng: random.Random) -> Any:
    return choose(game.view(seat), game.legal_actions(seat), rng, level)
