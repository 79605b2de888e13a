from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class SignupForm(UserCreationForm[User]):
    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("Only used to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class ShowBalanceForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ("show_balance",)


class AdjustBalanceForm(forms.Form):
    amount = forms.IntegerField(
        label=_("Amount"),
        help_text=_("Chips to add; a negative number takes chips away."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200)
    key = forms.UUIDField(widget=forms.HiddenInput)

    def clean_amount(self) -> int:
        amount: int = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(_("Enter a number of chips other than zero."))
        return amount
