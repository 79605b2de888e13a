"""Check an exported game file: seed, deal, every event, the result."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.records.record_shape import read
from games.records.replay import Mismatch
from games.records.verification import verify


class Command(BaseCommand):
    help = (
        "Verifies a game exported from /games/<id>/export.json: the seed against its hash, "
        "the deal against the seeds, every event through the engine, and the result."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="an exported game (durak-game/1)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["file"], "rb") as source:
                record = read(source.read())
            self.stdout.write(verify(record))
        except OSError as error:
            message = f"not verified: cannot read {options['file']}: {error.strerror}"
            raise CommandError(message) from None
        except Mismatch as difference:
            raise CommandError(f"not verified: {difference}") from None
