from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from staff.operations import MOST_TEXT


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=MOST_TEXT)


class KickForm(ReasonForm):
    position = forms.IntegerField(label=_("Seat"), min_value=0, max_value=3)


class NoticeForm(forms.Form):
    text = forms.CharField(label=_("Notice"), max_length=MOST_TEXT)


class AdjustChipsForm(ReasonForm):
    amount = forms.IntegerField(
        label=_("Chips"), help_text=_("Chips to add; a negative number takes chips away.")
    )
    key = forms.UUIDField(widget=forms.HiddenInput)


def first_error(form: forms.Form) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        return f"{label}: {errors[0]}" if label else str(errors[0])
    return ""
