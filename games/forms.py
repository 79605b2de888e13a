from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import BotLevel, Table


class TableForm(forms.ModelForm[Table]):
    class Meta:
        model = Table
        fields = [
            "name",
            "stake",
            "seats",
            "move_time",
            "bots_allowed",
            "private",
            "spectators_chat",
        ]
        widgets = {
            "seats": forms.Select(choices=[(2, "2"), (3, "3"), (4, "4")]),
        }

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give the table a name."))
        return name


class BotForm(forms.Form):
    level = forms.ChoiceField(choices=BotLevel.choices)


class SeatForm(forms.Form):
    position = forms.IntegerField(min_value=0, max_value=3)


class QuickPlayForm(forms.Form):
    stake = forms.IntegerField(min_value=0, max_value=1_000_000, required=False)


class PracticeForm(forms.Form):
    seat = forms.IntegerField(label=_("Your seat"), min_value=0, max_value=3)
    level = forms.ChoiceField(label=_("Bots"), choices=BotLevel.choices, required=False)
    leave = forms.BooleanField(required=False)

    def clean_level(self) -> str:
        return self.cleaned_data["level"] or BotLevel.EASY
