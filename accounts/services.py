"""Creating players."""

from __future__ import annotations

from django.db import transaction

from accounts import ledger
from accounts.models import User


@transaction.atomic
def create_player(username: str, password: str, email: str = "") -> User:
    user = User.objects.create_user(username=username, password=password, email=email)
    ledger.grant_welcome(user)
    return user
