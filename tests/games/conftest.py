from __future__ import annotations

from collections.abc import Iterator

import pytest
import time_machine
from django.utils import translation

from accounts.models import User
from accounts.services import create_player
from games import clock
from games.models import Game, Table
from games.table import play, tables


@pytest.fixture(autouse=True)
def in_english() -> Iterator[None]:
    """The tests read the English messages; the Russian ones are checked by the catalogue."""
    with translation.override("en"):
        yield


@pytest.fixture
def anna(db: None) -> User:
    return create_player("anna", "anna-plays-durak")


@pytest.fixture
def boris(db: None) -> User:
    return create_player("boris", "boris-plays-durak")


@pytest.fixture
def clara(db: None) -> User:
    return create_player("clara", "clara-plays-durak")


class Clock:
    """The site's clock under the test's control."""

    def __init__(self, traveller: time_machine.Coordinates) -> None:
        self.traveller = traveller

    def advance(self, seconds: float) -> float:
        self.traveller.shift(seconds)
        return clock.now()

    def advance_to(self, moment: float) -> float:
        return self.advance(max(0.0, moment - clock.now()))


@pytest.fixture
def frozen_clock() -> Iterator[Clock]:
    with time_machine.travel(1_800_000_000.0, tick=False) as traveller:
        yield Clock(traveller)


def open_table(host: User, *, stake: int = 100, seats: int = 2, **terms: object) -> Table:
    options = {"name": "Test table", "move_time": 30, "bots_allowed": True, "private": False}
    options.update(terms)
    return tables.create_table(host, stake=stake, seats=seats, **options)  # type: ignore[arg-type]


def start_when_due(table: Table, frozen_clock: Clock) -> Game:
    frozen_clock.advance(tables.START_DELAY + 0.01)
    game = play.start(table.pk)
    assert game is not None
    return game


def play_out(game: Game, frozen_clock: Clock, limit: int = 5000) -> Game:
    """Let deadlines and bots run the game to its end."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return game
        assert game.deadline_at is not None, "a running game always has a next deadline"
        frozen_clock.advance_to(clock.to_seconds(game.deadline_at) + 0.001)
        play.tick(game.pk)
    raise AssertionError("the game did not end")
