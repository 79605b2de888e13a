"""The audit trail and what the staff have in force, read-only: they change only through
the staff pages, which record every change; the players' balance adjustments are recorded too."""

from __future__ import annotations

from django.contrib import admin

import staff.games_admin  # noqa: F401  (the games' tables and games, run by the staff)
from accounts.admin import PlayerAdmin, ReadOnlyAdmin
from accounts.models import User
from durak_site.requests import PlayerRequest
from staff import operations
from staff.models import NewGamesPause, SiteNotice, StaffAction, TableLock


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "staff", "kind", "table", "game", "player", "reason")
    list_filter = ("kind",)
    list_select_related = ("staff", "table", "game__table", "player")
    search_fields = ("reason", "staff__username", "player__username", "table__name")
    date_hierarchy = "created_at"


@admin.register(SiteNotice)
class SiteNoticeAdmin(ReadOnlyAdmin):
    list_display = ("text", "started_by", "started_at", "ended_by", "ended_at")


@admin.register(NewGamesPause)
class NewGamesPauseAdmin(ReadOnlyAdmin):
    list_display = ("reason", "started_by", "started_at", "ended_by", "ended_at")


@admin.register(TableLock)
class TableLockAdmin(ReadOnlyAdmin):
    list_display = ("table", "reason", "started_by", "started_at", "ended_by", "ended_at")


admin.site.unregister(User)


@admin.register(User)
class AuditedPlayerAdmin(PlayerAdmin):
    """The players' admin, with each balance adjustment in the audit trail."""

    refusals = (operations.StaffError,)

    def adjust_one(
        self, request: PlayerRequest, user: User, amount: int, reason: str, key: str
    ) -> None:
        operations.adjust_chips(request.user, user, amount, reason, key=key)
