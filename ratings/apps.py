from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from games.table.committed import game_finished
        from ratings.services import rate_on_finish

        game_finished.connect(rate_on_finish, dispatch_uid="ratings.rate_on_finish")
