"""The running games this process last wrote, held in memory with the fingerprint of what
it wrote (`games.table.game_rows.Fingerprint`): the next action at one of them reads only its
fingerprint and, when the database still holds exactly that, starts from what is held
instead of reading the game, its table and its seats again. A game some other process or
writer changed since shows another fingerprint and is read whole, as before.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Model

from games.models import Game, Seat
from games.table.game_rows import Fingerprint, sightings, without_sightings


@dataclass(frozen=True)
class Held:
    fingerprint: Fingerprint
    row: Game
    seats: tuple[Seat, ...]


class HeldGames:
    KEPT = 2048

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.games: OrderedDict[int, Held] = OrderedDict()

    def take(self, game_id: int, fingerprint: Fingerprint) -> tuple[Game, list[Seat]] | None:
        """Copies of the game's row and seats, if what is held has this fingerprint (or
        differs from it only in when the players were last seen: the copies are given those
        sightings): a writer changes its copies freely, and what is held changes only when
        it commits."""
        with self.lock:
            held = self.games.get(game_id)
        if held is None:
            return None
        seats = [clone(seat) for seat in held.seats]
        if held.fingerprint != fingerprint:
            if without_sightings(held.fingerprint) != without_sightings(fingerprint):
                return None
            seen = sightings(fingerprint)
            for seat in seats:
                seat.last_seen = seen[seat.pk]
        return clone(held.row), seats

    def keep(self, fingerprint: Fingerprint, row: Game, seats: list[Seat]) -> None:
        with self.lock:
            self.games[row.pk] = Held(fingerprint, row, tuple(seats))
            self.games.move_to_end(row.pk)
            while len(self.games) > self.KEPT:
                self.games.popitem(last=False)

    def deadline_of(self, game_id: int) -> datetime | None:
        """The deadline of the game as held (None if it is not held)."""
        with self.lock:
            held = self.games.get(game_id)
        return held.row.deadline_at if held is not None else None

    def drop(self, game_id: int) -> None:
        with self.lock:
            self.games.pop(game_id, None)


def clone(instance: Model) -> Any:
    """A copy of a model instance that shares nothing it could change with the original:
    its fields and its cache of related rows are its own (the rows in it are shared, and
    the game's writers only read them)."""
    copied = instance.__class__.__new__(instance.__class__)
    copied.__dict__ = instance.__dict__.copy()
    copied._state = copy.copy(instance._state)
    copied._state.fields_cache = dict(instance._state.fields_cache)
    return copied


held_games = HeldGames()
