from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from accounts import ledger, limits, services
from accounts.forms import LoginForm, ShowBalanceForm, SignupForm
from accounts.models import User
from durak_site.requests import PlayerRequest

ENTRIES_PER_PAGE = 20


class Login(auth_views.LoginView):
    authentication_form = LoginForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not limits.may_log_in(request):
            return slowed(request, _("Too many logins from your address: wait a minute."))
        return super().post(request, *args, **kwargs)


def slowed(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "registration/slowed.html", {"message": message}, status=429)


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not limits.may_sign_up(request):
            return slowed(request, _("Too many sign-ups from your address: try again in an hour."))
        user = services.create_player(
            form.cleaned_data["username"],
            form.cleaned_data["password1"],
            form.cleaned_data["email"],
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(player)s! You have %(chips)s chips to play with.")
            % {"player": user.username, "chips": ledger.balance(user)},
        )
        return redirect(settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request: PlayerRequest) -> HttpResponse:
    form = ShowBalanceForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your profile is saved."))
        return redirect("profile")
    entries = Paginator(ledger.history(request.user), ENTRIES_PER_PAGE)
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "balance": ledger.balance(request.user),
            "entries": entries.get_page(request.GET.get("page")),
        },
    )


def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    return render(
        request,
        "accounts/player_profile.html",
        {
            "player": player,
            "balance": ledger.balance(player) if player.show_balance else None,
        },
    )
