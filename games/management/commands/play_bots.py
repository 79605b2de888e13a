"""Play whole games among bots in seconds and print their ids."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from games.models import BotLevel, Game
from games.records.botmatch import MatchError, play_bots


class Command(BaseCommand):
    help = (
        "Plays N complete games at a new table through the real writers, on a clock that "
        "jumps to each deadline, and prints each game's id."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1)
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--seat", metavar="USERNAME", help="a player seated too (autopilot)")
        parser.add_argument("--stake", type=int, default=0)
        parser.add_argument("--level", choices=BotLevel.values, default=BotLevel.EASY)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        if options["stake"] < 0:
            raise CommandError("--stake cannot be negative")
        seat = None
        if options["seat"]:
            seat = User.objects.filter(username=options["seat"]).first()
            if seat is None:
                raise CommandError(f"there is no player {options['seat']!r}")

        def show(game: Game) -> None:
            self.stdout.write(str(game.pk))

        try:
            play_bots(
                options["games"],
                options["players"],
                seat=seat,
                stake=options["stake"],
                level=options["level"],
                each=show,
            )
        except MatchError as refusal:
            raise CommandError(str(refusal)) from None
