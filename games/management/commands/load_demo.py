"""Demo data for a fresh site: two players. Safe to run again: nothing is duplicated."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.models import User
from accounts.services import create_player

DEMO_PLAYERS = (("anna", "anna-plays-durak"), ("boris", "boris-plays-durak"))


class Command(BaseCommand):
    help = "Loads the demo players and tables (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        for username, password in DEMO_PLAYERS:
            if User.objects.filter(username=username).exists():
                continue
            create_player(username, password)
            self.stdout.write(f"Created demo player {username}")
        self.stdout.write("Demo data ready.")
