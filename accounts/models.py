from __future__ import annotations

from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A registered player (or an admin)."""
