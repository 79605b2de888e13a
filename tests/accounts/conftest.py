from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.conf import LazySettings

from accounts.models import User
from accounts.services import create_player

PASSWORD = "a-long-enough-password-42"


@dataclass(frozen=True)
class Game:
    pk: int


@pytest.fixture
def make_player(settings: LazySettings, db: None) -> Callable[..., User]:
    def make(username: str, chips: int = 1000) -> User:
        settings.WELCOME_GRANT = chips
        return create_player(username, PASSWORD)

    return make


@pytest.fixture
def make_game() -> Callable[[], Game]:
    ids = itertools.count(1)
    return lambda: Game(pk=next(ids))
