"""Tables and games as the site makes them, on a clock the test moves by hand."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import time_machine

from accounts.models import User
from accounts.services import create_player
from games import clock
from games.models import Game, Table
from games.table import play, tables


class Clock:
    """The site's clock under the test's control."""

    def __init__(self, traveller: time_machine.Traveller) -> None:
        self.traveller = traveller

    def advance(self, seconds: float) -> float:
        self.traveller.shift(seconds)
        return clock.now()

    def advance_to(self, moment: float) -> float:
        return self.advance(max(0.0, moment - clock.now()))

    def past_deadline(self, game: Game, by: float = 0.001) -> float:
        """Moves to `by` seconds after the game's next deadline."""
        return self.advance_to(deadline_of(game) + by)


def deadline_of(game: Game) -> float:
    """When the game's next deadline falls, on the site's clock."""
    assert game.deadline_at is not None, "a running game always has a next deadline"
    return clock.to_seconds(game.deadline_at)


@pytest.fixture
def frozen_clock() -> Iterator[Clock]:
    with time_machine.travel(1_800_000_000.0, tick=False) as traveller:
        yield Clock(traveller)


def open_table(
    host: User,
    *,
    stake: int = 100,
    seats: int = 2,
    name: str = "Test table",
    move_time: int = 30,
    bots_allowed: bool = True,
    private: bool = False,
    spectators_chat: bool = False,
) -> Table:
    return tables.create_table(
        host,
        name=name,
        stake=stake,
        seats=seats,
        move_time=move_time,
        bots_allowed=bots_allowed,
        private=private,
        spectators_chat=spectators_chat,
    )


@pytest.fixture
def table(anna: User, boris: User) -> Table:
    """A two-seat table without a stake that anna opened and boris joined (a test module
    that needs another table defines its own `table`)."""
    opened = open_table(anna, stake=0)
    tables.join(opened.pk, boris)
    return opened


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
        frozen_clock.past_deadline(game)
        play.tick(game.pk)
    raise AssertionError("the game did not end")


def games_of_bots(count: int, frozen_clock: Clock) -> list[Game]:
    """Two-seat tables whose person left: a bot and the autopilot play, each move a deadline."""
    games = []
    for index in range(count):
        host = create_player(f"host{index}", "a-long-enough-password-42")
        table = open_table(host, stake=0)
        tables.add_bot(table.pk, host)
        games.append(start_when_due(table, frozen_clock))
        tables.leave(table.pk, host)
    return games
