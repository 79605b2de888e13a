"""Demo data for a fresh site: two players, a few open tables and, for anna, a few finished
games to look back at (played by ``play_bots``). Safe to run again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.models import User
from accounts.services import create_player
from games.models import GamePlayer, Table
from games.records.botmatch import play_bots

DEMO_PLAYERS = (("anna", "anna-plays-durak"), ("boris", "boris-plays-durak"))
DEMO_HISTORY = ("anna", (2, 3, 4))
"""Whose history the demo fills, and the player counts of the games played for it."""
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
        name, sizes = DEMO_HISTORY
        player = User.objects.get(username=name)
        if not GamePlayer.objects.filter(player=player).exists():
            for players in sizes:
                (game,) = play_bots(1, players, seat=player)
                self.stdout.write(f"Played demo game #{game.pk} for {name} ({players} players)")
        self.stdout.write("Demo data ready.")
