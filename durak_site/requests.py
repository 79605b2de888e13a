"""What the views may rely on in a request: htmx's details (the middleware) and, behind
`login_required`, a signed-in player."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxRequest(HttpRequest):
    htmx: HtmxDetails


class PlayerRequest(HtmxRequest):
    user: User
