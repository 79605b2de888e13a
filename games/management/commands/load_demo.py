"""Demo data for a fresh site: two players and a few open tables. Safe to run again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.models import User
from accounts.services import create_player
from games.models import Table

DEMO_PLAYERS = (("anna", "anna-plays-durak"), ("boris", "boris-plays-durak"))
DEMO_TABLES = (
    {"name": "Для новичков", "stake": 0, "seats": 2, "move_time": 30},
    {"name": "Стол на сотню", "stake": 100, "seats": 3, "move_time": 30},
    {"name": "Вчетвером", "stake": 50, "seats": 4, "move_time": 20},
)


class Command(BaseCommand):
    help = "Loads the demo players and tables (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        for username, password in DEMO_PLAYERS:
            if not User.objects.filter(username=username).exists():
                create_player(username, password)
                self.stdout.write(f"Created demo player {username}")
        for terms in DEMO_TABLES:
            _table, created = Table.objects.get_or_create(
                name=terms["name"], creator=None, defaults={**terms, "bots_allowed": True}
            )
            if created:
                self.stdout.write(f"Created demo table {terms['name']}")
        self.stdout.write("Demo data ready.")
