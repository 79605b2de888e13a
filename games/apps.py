from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games.deadlines import scheduler, timing
        from games.live import broadcast

        timing.hear_the_writers()
        broadcast.hear_the_writers()
        scheduler.hear_the_writers()
