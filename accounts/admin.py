from __future__ import annotations

import uuid
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.admin import UserAdmin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import ledger
from accounts.forms import AdjustBalanceForm
from accounts.models import Account, Transfer, User
from durak_site.requests import PlayerRequest


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "balance", "closed", "created_at")
    list_filter = ("kind", "closed")
    search_fields = ("user__username", "=game__id")


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "kind", "amount", "source", "destination", "game_id", "reason")
    list_filter = ("kind",)
    list_select_related = ("source__user", "destination__user")
    search_fields = (
        "key",
        "reason",
        "=game__id",
        "source__user__username",
        "destination__user__username",
    )
    date_hierarchy = "created_at"


@admin.register(User)
class PlayerAdmin(UserAdmin[User]):
    actions = ["adjust_balance"]
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (gettext_lazy("Chips"), {"fields": ("show_balance",)}),
    )
    readonly_fields = ("is_active",)

    refusals: tuple[type[Exception], ...] = (ledger.LedgerError,)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Players hold games and chips; deactivate them on the staff pages instead."""
        return False

    def adjust_one(
        self, request: PlayerRequest, user: User, amount: int, reason: str, key: str
    ) -> None:
        ledger.adjust(user, amount, reason, by=request.user, key=f"adjustment:{key}")

    @admin.action(description=gettext_lazy("Adjust balance"), permissions=["change"])
    def adjust_balance(
        self, request: PlayerRequest, queryset: QuerySet[User]
    ) -> HttpResponse | None:
        form = AdjustBalanceForm(
            request.POST if "apply" in request.POST else None, initial={"key": uuid.uuid4()}
        )
        if form.is_valid():
            try:
                with transaction.atomic():
                    for user in queryset.order_by("pk"):
                        self.adjust_one(
                            request,
                            user,
                            form.cleaned_data["amount"],
                            form.cleaned_data["reason"],
                            key=f"{form.cleaned_data['key']}:{user.pk}",
                        )
            except self.refusals as refused:
                form.add_error(None, str(refused))
            else:
                self.message_user(
                    request,
                    _("Adjusted the balance of %(count)s player(s).") % {"count": len(queryset)},
                    messages.SUCCESS,
                )
                return None
        return render(
            request,
            "accounts/admin_adjust_balance.html",
            {
                **self.admin_site.each_context(request),
                "title": _("Adjust balance"),
                "form": form,
                "players": queryset,
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            },
        )
