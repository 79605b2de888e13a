from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import LazySettings
from django.test import Client

from accounts.models import User
from accounts.services import create_player
from games.models import Game, Table

PASSWORD = "a-long-enough-password-42"


def a_game() -> Game:
    """A game row for the ledger to hold a bank for (the ledger's game columns are foreign keys)."""
    table = Table.objects.create(name="Ledger test", seats=2)
    return Game.objects.create(table=table, state={}, seed="0", seed_hash="0")


@pytest.fixture
def client() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def admin_client(admin_user: User) -> Client:
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(admin_user)
    return browser


@pytest.fixture
def make_player(settings: LazySettings, db: None) -> Callable[..., User]:
    def make(username: str, chips: int = 1000) -> User:
        settings.WELCOME_GRANT = chips
        return create_player(username, PASSWORD)

    return make


@pytest.fixture
def make_game(db: None) -> Callable[[], Game]:
    return a_game
