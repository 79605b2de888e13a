from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
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


class LoginForm(AuthenticationForm):
    """Tells a deactivated player (who knows their password) why they cannot log in."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "inactive": _(
            "The staff deactivated this account, so it cannot log in. "
            "Write to the staff if you think this is a mistake."
        ),
    }

    def clean(self) -> dict[str, object]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username and password:
            person = User.objects.filter(username=username, is_active=False).first()
            if person is not None and person.check_password(password):
                raise forms.ValidationError(self.error_messages["inactive"], code="inactive")
        return super().clean()
