"""The deadline scheduler as a process of its own (scale-out)."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from django.core.management.base import BaseCommand

from durak_site.serving import tune_interpreter
from games.deadlines.scheduler import Scheduler


class Command(BaseCommand):
    help = "Runs the deadline scheduler: fires every game deadline and bot move when due."

    def handle(self, *args: Any, **options: Any) -> None:
        tune_interpreter()
        asyncio.run(self.serve())

    async def serve(self) -> None:
        scheduler = Scheduler(takes_moves=True)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, scheduler.stop)
        self.stdout.write("Scheduler running.")
        await scheduler.run()
