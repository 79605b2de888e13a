"""Each staff action once: the form that checks its input, what it does, what it says when
done. The pages post these forms; the control room's socket sends the same fields as JSON."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.shortcuts import get_object_or_404
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from staff import operations
from staff.forms import AdjustChipsForm, KickForm, NoticeForm, ReasonForm, first_error


@dataclass(frozen=True)
class Action:
    form: type[forms.Form]
    act: Callable[..., Any]
    done: Promise

    def perform(self, staff: User, data: Mapping[str, Any], **url: Any) -> str:
        """Checks the input, carries the action out and says what happened; a StaffError
        says why nothing happened."""
        form = self.form(data)
        if not form.is_valid():
            raise operations.StaffError(first_error(form))
        self.act(staff, form.cleaned_data, **url)
        return str(self.done)


def person(pk: int) -> User:
    return get_object_or_404(User, pk=pk)


TABLE = {
    "stop": Action(
        ReasonForm,
        lambda staff, data, pk: operations.stop_game(staff, pk, data["reason"]),
        _("Stopped: every stake returned."),
    ),
    "close": Action(
        ReasonForm,
        lambda staff, data, pk: operations.close_table(staff, pk, data["reason"]),
        _("The table is closed."),
    ),
    "lock": Action(
        ReasonForm,
        lambda staff, data, pk: operations.lock_table(staff, pk, data["reason"]),
        _("The table is locked."),
    ),
    "unlock": Action(
        ReasonForm,
        lambda staff, data, pk: operations.unlock_table(staff, pk, data["reason"]),
        _("The table is unlocked."),
    ),
    "kick": Action(
        KickForm,
        lambda staff, data, pk: operations.kick(staff, pk, data["position"], data["reason"]),
        _("The player is off the table."),
    ),
    "notice": Action(
        NoticeForm,
        lambda staff, data, pk: operations.notify_table(staff, pk, data["text"]),
        _("The notice is sent."),
    ),
}

SITE = {
    "notice": Action(
        NoticeForm,
        lambda staff, data: operations.post_site_notice(staff, data["text"]),
        _("The notice is on every page."),
    ),
    "end-notice": Action(
        ReasonForm,
        lambda staff, data, pk: operations.end_site_notice(staff, pk, data["reason"]),
        _("The notice is taken down."),
    ),
    "pause": Action(
        ReasonForm,
        lambda staff, data: operations.pause_new_games(staff, data["reason"]),
        _("New games are paused; running games finish."),
    ),
    "resume": Action(
        ReasonForm,
        lambda staff, data: operations.resume_new_games(staff, data["reason"]),
        _("New games start again."),
    ),
}

PLAYER = {
    "deactivate": Action(
        ReasonForm,
        lambda staff, data, pk: operations.deactivate(staff, person(pk), data["reason"]),
        _(
            "The player is deactivated and logged out everywhere. A seat of theirs in a running "
            "game is played out by the autopilot, and the house holds its payout."
        ),
    ),
    "reactivate": Action(
        ReasonForm,
        lambda staff, data, pk: operations.reactivate(staff, person(pk), data["reason"]),
        _("The player may log in again."),
    ),
    "adjust": Action(
        AdjustChipsForm,
        lambda staff, data, pk: operations.adjust_chips(
            staff, person(pk), data["amount"], data["reason"], key=str(data["key"])
        ),
        _("The chips are adjusted."),
    ),
}
