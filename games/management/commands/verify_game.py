"""Check an exported game file: seed, deal, every event, the result."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.replay import Mismatch
from games.verification import verify


class Command(BaseCommand):
    help = (
        "Verifies a game exported from /games/<id>/export.json: the seed against its hash, "
        "the deal against the seeds, every event through the engine, and the result."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="an exported game (durak-game/1)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["file"], encoding="utf-8") as source:
                record = json.load(source)
        except OSError as error:
            raise CommandError(f"cannot read {options['file']}: {error.strerror}") from None
        except json.JSONDecodeError as error:
            raise CommandError(f"{options['file']} is not JSON: {error}") from None
        if not isinstance(record, dict):
            raise CommandError(f"{options['file']} is not a game record")
        try:
            self.stdout.write(verify(record))
        except Mismatch as difference:
            raise CommandError(f"not verified: {difference}") from None
