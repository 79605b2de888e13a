from __future__ import annotations

import pytest

from accounts.models import User
from accounts.services import create_player


@pytest.fixture
def moderator(db: None) -> User:
    staff = create_player("mod", "mod-keeps-order")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    return staff


@pytest.fixture(autouse=True)
def in_chat_memory_layer(in_memory_layer: None) -> None:
    """The chat tests all send through channels' own in-memory layer."""
