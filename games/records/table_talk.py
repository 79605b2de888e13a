"""What was said at the table during a game, among its moves: the games ask, another app
answers.

A finished game's history page and its replay show the game's moves; the chat app puts
what was said at the table among them, each line after the move it followed
(`answer_with`). Until someone answers, the moves are shown alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.models import Game

Entry = dict[str, Any]


class TableTalk:
    """Nothing said: what the games show while nobody answers."""

    def among_moves(self, game: Game, moves: Sequence[Entry], reader: Any) -> list[Entry]:
        """The history page's log: `moves` (each `{"seq": ..., "text": ...}`) with what
        `reader` may read of what was said among them."""
        return list(moves)

    def in_replay(self, log: Sequence[Entry], game: Game, reader: Any) -> list[Entry]:
        """The replay's log (entries with "seq" and "step") with what was said, each at
        the step it was said in."""
        return list(log)


_talk = TableTalk()


def answer_with(talk: TableTalk) -> None:
    global _talk
    _talk = talk


def talk() -> TableTalk:
    return _talk
