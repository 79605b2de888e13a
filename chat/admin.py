"""The staff's view of the chat: every line (hidden ones too), who muted whom site-wide, and
actions that hide lines or mute their authors, each with a reason kept in the record."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Model, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from chat import services
from chat.forms import ReasonForm, SiteMuteForm
from chat.models import Message, Mute, SiteMute


def with_reason(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    items: QuerySet[Any],
    action: str,
    title: str,
    apply: Callable[[Any, str], object],
) -> HttpResponse | None:
    """An admin action that asks for a reason first, then applies `apply(item, reason)`."""
    form = ReasonForm(request.POST if "apply" in request.POST else None)
    if not form.is_valid():
        return render(
            request,
            "chat/admin/reason.html",
            {
                **model_admin.admin_site.each_context(request),
                "title": title,
                "form": form,
                "items": items,
                "action": action,
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
                "opts": model_admin.model._meta,
            },
        )
    done = 0
    for item in items:
        try:
            apply(item, form.cleaned_data["reason"])
        except services.ChatRefused as refusal:
            model_admin.message_user(request, f"{item}: {refusal}", messages.WARNING)
        else:
            done += 1
    model_admin.message_user(request, _("Done: %(count)s.") % {"count": done}, messages.SUCCESS)
    return None


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "table", "game", "author", "kind", "text", "hidden_reason"]
    list_filter = ["kind", ("hidden_at", admin.EmptyFieldListFilter)]
    search_fields = ["text", "author__username", "table__name"]
    list_select_related = ["table", "author"]
    actions = ["hide_messages", "mute_authors"]
    date_hierarchy = "created_at"

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perms(["chat.change_message", "chat.add_sitemute"])

    @admin.action(
        description=_("Hide the selected messages for everyone"), permissions=["moderate"]
    )
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[Message]) -> Any:
        return with_reason(
            self,
            request,
            queryset.filter(hidden_at__isnull=True),
            "hide_messages",
            str(_("Hide the selected messages for everyone")),
            lambda message, reason: services.hide(request.user, message.pk, reason),
        )

    @admin.action(description=_("Mute the authors site-wide"), permissions=["moderate"])
    def mute_authors(self, request: HttpRequest, queryset: QuerySet[Message]) -> Any:
        authors = User.objects.filter(chat_messages__in=queryset).distinct()
        return with_reason(
            self,
            request,
            authors,
            "mute_authors",
            str(_("Mute the authors site-wide")),
            lambda author, reason: services.mute_site_wide(request.user, author, reason),
        )


@admin.register(SiteMute)
class SiteMuteAdmin(admin.ModelAdmin):
    form = SiteMuteForm
    list_display = ["player", "reason", "by", "created_at", "until", "lifted_at", "lifted_by"]
    list_filter = [("lifted_at", admin.EmptyFieldListFilter)]
    search_fields = ["player__username", "reason"]
    autocomplete_fields = ["player"]
    actions = ["lift"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Model, form: ModelForm, change: bool) -> None:
        assert isinstance(obj, SiteMute)
        made = services.mute_site_wide(request.user, obj.player, obj.reason, obj.until)
        obj.pk, obj.by, obj.created_at = made.pk, made.by, made.created_at

    @admin.action(description=_("Lift the selected mutes"), permissions=["add"])
    def lift(self, request: HttpRequest, queryset: QuerySet[SiteMute]) -> Any:
        return with_reason(
            self,
            request,
            queryset.filter(lifted_at__isnull=True),
            "lift",
            str(_("Lift the selected mutes")),
            lambda site_mute, reason: services.lift_site_mute(request.user, site_mute, reason),
        )


@admin.register(Mute)
class MuteAdmin(ReadOnlyAdmin):
    list_display = ["player", "muted", "created_at"]
    search_fields = ["player__username", "muted__username"]
