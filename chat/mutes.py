"""Who may write at a table, and whom a reader does not hear: what the chat's pages, its
socket and its services all ask before they show or take a line."""

from __future__ import annotations

from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from chat.models import Mute, SiteMute
from games.models import Table


def may_write(table: Table, seat: int | None) -> bool:
    return seat is not None or table.spectators_chat


def site_mute_of(user: Any) -> SiteMute | None:
    return SiteMute.objects.active().filter(player=user.pk).order_by("-created_at").first()


def site_mute_notice(mute: SiteMute) -> str:
    if mute.until is None:
        return _("The staff have muted you in chat: %(reason)s") % {"reason": mute.reason}
    return _("The staff have muted you in chat until %(until)s: %(reason)s") % {
        "until": formats.date_format(timezone.localtime(mute.until), "DATETIME_FORMAT"),
        "reason": mute.reason,
    }


def muted_ids(user: Any) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(Mute.objects.filter(player=user.pk).values_list("muted_id", flat=True))
