"""The games in the Django admin: admins run the tables there, closing a table or stopping a
running game with every stake returned, both as staff operations recorded in the audit trail.
Tables, games, seats and events are never deleted here: they hold history and money."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.models import Game, GameEvent, GamePlayer, Seat, Table
from staff import operations

FROM_THE_ADMIN = _("from the Django admin")
STOPPED = _("Stopped the game at %(table)s.")


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    fields = readonly_fields = (
        "position",
        "player",
        "bot_level",
        "away",
        "left",
        "ready",
        "last_seen",
    )
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = [
        "name",
        "status",
        "stake",
        "seats",
        "move_time",
        "bots_allowed",
        "private",
        "creator",
        "created_at",
    ]
    list_filter = ["status", "private", "bots_allowed"]
    search_fields = ["name", "creator__username"]
    readonly_fields = ["status", "starts_at", "invite_code", "created_at"]
    inlines = [SeatInline]
    actions = ["close_tables", "abort_running_games"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description=_("Close the selected tables (no running game)"))
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            act_on(self, request, table, operations.close_table, _("Closed %(table)s."))

    @admin.action(description=_("Stop the running game and return every stake"))
    def abort_running_games(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            act_on(self, request, table, operations.stop_game, STOPPED)


def act_on(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    table: Table,
    operation: Callable[[Any, int, str], Any],
    done: Promise,
) -> None:
    """A staff operation on one table, recorded in the audit trail like any other."""
    try:
        operation(request.user, table.pk, str(FROM_THE_ADMIN))
    except operations.StaffError as refusal:
        model_admin.message_user(request, f"{table}: {refusal}", messages.ERROR)
    else:
        model_admin.message_user(request, str(done) % {"table": table})


class GamePlayerInline(admin.TabularInline[GamePlayer, Game]):
    model = GamePlayer
    extra = 0
    fields = readonly_fields = ("seat", "player", "bot_level", "stake", "place", "payout", "durak")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ["pk", "table", "status", "bank", "version", "started_at", "finished_at"]
    list_filter = ["status"]
    search_fields = ["table__name", "players__player__username"]
    inlines = [GamePlayerInline]
    actions = ["abort_games"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [field.name for field in Game._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description=_("Stop the selected running games and return every stake"))
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset.select_related("table"):
            if game.status != Game.Status.RUNNING:
                self.message_user(
                    request, _("%(game)s is not running.") % {"game": game}, messages.WARNING
                )
                continue
            act_on(self, request, game.table, operations.stop_game, STOPPED)


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin[GameEvent]):
    list_display = ["game", "seq", "type", "seat", "created_at"]
    list_filter = ["type"]
    readonly_fields = ["game", "seq", "type", "seat", "data", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
