from __future__ import annotations

import pytest
import time_machine

from accounts.services import create_player
from games import clock


@pytest.fixture
def anna(db):
    return create_player("anna", "anna-plays-durak")


@pytest.fixture
def boris(db):
    return create_player("boris", "boris-plays-durak")


class Clock:
    """The site's clock under the test's control."""

    def __init__(self, traveller: time_machine.Coordinates) -> None:
        self.traveller = traveller

    def now(self) -> float:
        return clock.now()

    def advance(self, seconds: float) -> float:
        self.traveller.shift(seconds)
        return clock.now()


@pytest.fixture
def frozen_clock():
    with time_machine.travel(1_800_000_000.0, tick=False) as traveller:
        yield Clock(traveller)
