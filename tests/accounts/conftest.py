from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.conf import LazySettings
from django.test import Client
from django.utils import translation

from accounts.models import User
from accounts.services import create_player

PASSWORD = "a-long-enough-password-42"


@dataclass(frozen=True)
class Game:
    pk: int


@pytest.fixture(autouse=True)
def in_english() -> Iterator[None]:
    """The pages and messages read in English here; Russian is checked by the catalogue."""
    with translation.override("en"):
        yield


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
def make_game() -> Callable[[], Game]:
    ids = itertools.count(1)
    return lambda: Game(pk=next(ids))
