from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from accounts.models import User
from accounts.services import create_player
from games.live import ratelimit
from tests.games.conftest import anna, boris, clara, frozen_clock, in_english
from tests.games.test_consumers import sockets

__all__ = ["anna", "boris", "clara", "frozen_clock", "in_english", "sockets"]


@pytest.fixture
def moderator(db: None) -> User:
    staff = create_player("mod", "mod-keeps-order")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    return staff


@pytest.fixture(autouse=True)
def in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> Iterator[None]:
    ratelimit.LOCAL.clear()
    yield
    ratelimit.LOCAL.clear()
