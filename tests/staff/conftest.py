from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import create_player


@pytest.fixture
def sofia(db: None) -> User:
    """A member of the staff."""
    staff = create_player("sofia", "sofia-runs-the-site")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    return staff


def browser_for(user: User | None) -> Client:
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        browser.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return browser


@pytest.fixture
def staff_browser(sofia: User) -> Client:
    return browser_for(sofia)
