"""Error pages in the site's layout and the reader's language, saying what happened."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _


class Gone(Http404):
    """A page that is not there, with a sentence for the reader."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Refused(PermissionDenied):
    """A page the reader may not see, with a sentence saying why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class OneLineRefusals(logging.Filter):
    """A refusal (403) is an answer, not a failure: its log line carries no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True


def words(status: int) -> tuple[str, str]:
    """The heading and the general sentence of each error page."""
    if status == 403:
        return _("Not for you"), _("You may not open this page.")
    if status == 404:
        return _("Not found"), _(
            "There is no such page: the address may be mistyped, or what was here is gone."
        )
    return _("Something went wrong"), _(
        "Something went wrong on our side. Your chips are safe: try again in a moment."
    )


def page(request: HttpRequest, status: int, message: str = "") -> HttpResponse:
    heading, general = words(status)
    context = {"status": status, "heading": heading, "message": message or general}
    return render(request, "error.html", context, status=status)


def explained(exception: Exception | None) -> str:
    """Only the sentences written for players are shown, never an internal reason."""
    return getattr(exception, "message", "") if isinstance(exception, Gone | Refused) else ""


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return page(request, 403, explained(exception))


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return page(request, 404, explained(exception))


def server_error(request: HttpRequest) -> HttpResponse:
    try:
        return page(request, 500)
    except Exception:
        return HttpResponse(_("Something went wrong on our side."), status=500)


def favicon(request: HttpRequest) -> HttpResponse:
    """Pages without the layout's icon link (the admin's) still find one."""
    return HttpResponseRedirect(static("img/favicon.svg"))
