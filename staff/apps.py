from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StaffConfig(AppConfig):
    name = "staff"
    verbose_name = _("Staff")

    def ready(self) -> None:
        from games import gates
        from staff.switches import StaffGate

        gates.answer_with(StaffGate())
