"""Rate the finished games that have no rating yet (a game is rated as it ends)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import rate_unrated


class Command(BaseCommand):
    help = "Rates, in the order they finished, the finished games not rated yet."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"{rate_unrated()} games rated")
