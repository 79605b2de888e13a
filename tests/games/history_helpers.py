"""Finished games for the history tests, played by play_bots."""

from __future__ import annotations

import json
from typing import Any

from accounts.models import User
from games.models import Game
from games.records import botmatch
from games.records.export import export


def played(
    player: User | None = None, *, games: int = 1, players: int = 2, stake: int = 0
) -> list[Game]:
    return botmatch.play_bots(games, players, seat=player, stake=stake)


def record_of(game: Game) -> dict[str, Any]:
    """The export as a file holds it."""
    return json.loads(json.dumps(export(game)))
