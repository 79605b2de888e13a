"""Whether a table may start a game or seat someone new: the games ask, another app answers.

The games own the question; the staff's pause of new games and their locks of tables are
one answer to it, which the staff app gives at start-up (`answer_with`). Until someone
answers, every table is open.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hold:
    """Why no new game starts at a table now: a `kind` the pages can style ("paused",
    "locked") and the `words` its page shows."""

    kind: str
    words: str


class Gate:
    """Every table open: what the games do while nobody answers."""

    def hold(self, table_id: int) -> Hold | None:
        """Why no new game may start at this table now, or None."""
        return None

    def join_refusal(self, table_id: int) -> str | None:
        """Why nobody may sit down at this table now, in words, or None."""
        return None

    def locked_tables(self) -> set[int]:
        """The tables where nobody may sit down now."""
        return set()

    def paused_words(self) -> str | None:
        """What a player who takes a seat is told while no new game may start anywhere."""
        return None


_gate = Gate()


def answer_with(gate: Gate) -> None:
    global _gate
    _gate = gate


def gate() -> Gate:
    return _gate
