"""Admins run the tables: close a table, stop a running game with every stake returned."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games import errors, play, tables
from games.models import Game, GameEvent, GamePlayer, Seat, Table


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

    @admin.action(description=_("Close the selected tables (no running game)"))
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            try:
                tables.close_table(table.pk)
            except errors.GameError as refusal:
                self.message_user(request, f"{table}: {refusal}", messages.ERROR)
            else:
                self.message_user(request, _("Closed %(table)s.") % {"table": table})

    @admin.action(description=_("Stop the running game and return every stake"))
    def abort_running_games(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            game_id = play.running_game_id(table.pk)
            if game_id is None:
                self.message_user(
                    request,
                    _("%(table)s has no running game.") % {"table": table},
                    messages.WARNING,
                )
                continue
            play.abort(game_id, reason=f"stopped by {request.user}")
            self.message_user(request, _("Stopped the game at %(table)s.") % {"table": table})


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
        for game in queryset:
            try:
                play.abort(game.pk, reason=f"stopped by {request.user}")
            except errors.GameError as refusal:
                self.message_user(request, f"{game}: {refusal}", messages.ERROR)
            else:
                self.message_user(request, _("Stopped %(game)s.") % {"game": game})


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
