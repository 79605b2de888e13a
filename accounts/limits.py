"""How often one address may log in and sign up (the lock of one username is django-axes')."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from durak_site.throttle import Limit, allows


def may_log_in(request: HttpRequest) -> bool:
    """Any login attempt counts, right or wrong: spraying names from an address is slowed,
    and whoever there knows their password gets in once the minute has passed."""
    return allows(Limit("login", settings.LOGINS_PER_MINUTE, 60), request)


def may_sign_up(request: HttpRequest) -> bool:
    """Each sign-up is granted the welcome chips, so one address opens only a few an hour."""
    return allows(Limit("signup", settings.SIGN_UPS_PER_HOUR, 3600), request)
