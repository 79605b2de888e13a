"""Creating players: the one place a new account comes into being."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User


@transaction.atomic
def create_player(username: str, password: str, email: str = "") -> User:
    return User.objects.create_user(username=username, password=password, email=email)
