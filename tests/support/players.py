"""The players most tests seat: anna, boris and clara, each with the welcome grant."""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.services import create_player


@pytest.fixture
def anna(db: None) -> User:
    return create_player("anna", "anna-plays-durak")


@pytest.fixture
def boris(db: None) -> User:
    return create_player("boris", "boris-plays-durak")


@pytest.fixture
def clara(db: None) -> User:
    return create_player("clara", "clara-plays-durak")
