"""The player's language: chosen with the switcher on any page, remembered on the account."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


class PlayerLanguageMiddleware:
    """After authentication: a logged-in player's saved language wins over the browser's."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        chosen = getattr(user, "language", "") if user is not None else ""
        if chosen in LANGUAGE_CODES and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        return self.get_response(request)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    response = django_set_language(request)
    chosen = request.POST.get("language", "")
    user = request.user
    if chosen in LANGUAGE_CODES and user.is_authenticated and user.language != chosen:
        user.language = chosen
        user.save(update_fields=["language"])
    return response
