"""The coach's own process: reviews each finished game that had a person at the table."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from ratings.coach import BUDGET, coach_game, pending

IDLE_SECONDS = 2.0


class Command(BaseCommand):
    help = (
        "Reviews finished games with the coach, each within --budget seconds of search, and "
        "stores its notes. Runs until stopped, or once through what is pending with --once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="review what is pending, then stop")
        parser.add_argument("--budget", type=float, default=BUDGET, help="seconds per game")

    def handle(self, *args: Any, **options: Any) -> None:
        while True:
            for game_id in pending():
                review = coach_game(game_id, budget=options["budget"])
                if review is not None:
                    self.stdout.write(
                        f"game {game_id}: {review.decisions} decisions, "
                        f"{review.notes_count} notes, {review.seconds:.2f} s"
                    )
            if options["once"]:
                return
            time.sleep(IDLE_SECONDS)
            close_old_connections()
