"""What the writers committed, as plain values, and who hears of it.

A writer never calls the sockets, the pictures or the scheduler: after its transaction
commits it sends one of these signals with what it stored, and the parts of the site
that care are connected to them (`games.live.hearing`, `games.deadlines.wakes`, the
ratings). Each is sent only once the transaction has committed (`after_commit`), so
nobody hears of a change that was rolled back; `game_finished` alone is sent inside the
transaction, for work that must commit with the game's end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from games import clock
from games.engine import Game as EngineGame
from games.models import Game, Seat, SeatInfo


@dataclass(frozen=True)
class Before:
    """A running game as its writer found it, before the change that made this version."""

    version: int
    state: dict[str, Any]
    bot_moves: dict[str, Any]
    names: tuple[SeatInfo, ...]


@dataclass(frozen=True)
class GameCommitted:
    """A version of a game, as its writer stored it.

    `seats` and `engine` are the table's seats and the rules engine as the writer left
    them (None when it did not have them: the game is read again then); `before` is the
    game at the version before, when the writer read it, so pages that show that version
    need only what changed."""

    game: Game
    events: tuple[dict[str, Any], ...]
    seats: tuple[Seat, ...] | None = None
    engine: EngineGame | None = None
    before: Before | None = None
    at: float = 0.0
    """When it committed, on the site's clock."""

    @property
    def version(self) -> int:
        return self.game.version


game_committed = Signal()
"""A version of a game committed: ``committed``, a `GameCommitted`."""

table_changed = Signal()
"""A table's seats or status changed: ``table_id``."""

player_unseated = Signal()
"""A player lost their seat: ``table_id``, ``user_id`` and the ``reason``, in their words."""

deadline_written = Signal()
"""A deadline was stored (a game's, a table's start, a seat's grace): ``at``, in seconds on
the site's clock."""

game_finished = Signal()
"""Sent by the writer inside the transaction that ends a game, with ``game``: the row with
its places and payouts written (a stopped game is not finished and sends nothing)."""


def after_commit_table_changed(table_id: int) -> None:
    _after_commit(table_changed, table_id=table_id)


def after_commit_unseated(table_id: int, user_id: int, reason: str) -> None:
    _after_commit(player_unseated, table_id=table_id, user_id=user_id, reason=reason)


def after_commit_deadline(at: float) -> None:
    _after_commit(deadline_written, at=at)


def _after_commit(signal: Signal, **values: Any) -> None:
    """Send `signal` with `values` once the transaction in progress commits (at once
    outside one)."""
    transaction.on_commit(partial(signal.send, sender=Game, **values))


def committed_game(
    game: Game,
    events: Sequence[dict[str, Any]],
    seats: Sequence[Seat] | None = None,
    engine: EngineGame | None = None,
    before: Before | None = None,
) -> None:
    """Tell who listens that `game` committed a version (call it after the commit)."""
    value = GameCommitted(
        game=game,
        events=tuple(events),
        seats=tuple(seats) if seats is not None else None,
        engine=engine,
        before=before,
        at=clock.now(),
    )
    game_committed.send(sender=Game, committed=value)
