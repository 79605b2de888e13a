from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from chat.models import SiteMute
from chat.services import REASON_LENGTH


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=REASON_LENGTH, help_text=_("kept in the record")
    )


class SiteMuteForm(forms.ModelForm):
    class Meta:
        model = SiteMute
        fields = ["player", "reason", "until"]

    def clean_until(self) -> object:
        until = self.cleaned_data.get("until")
        if until is not None and until <= timezone.now():
            raise forms.ValidationError(_("The end of a mute must be in the future."))
        return until
