"""The rules where players can read them, and links from a refusal to the rule it names."""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

RULE_REFERENCE = re.compile(r"\(R(\d{1,2})\)")


def rules(request: HttpRequest) -> HttpResponse:
    language = (get_language() or "ru")[:2]
    template = "games/rules/rules_en.html" if language == "en" else "games/rules/rules_ru.html"
    return render(request, template)


def link_rules(message: str) -> SafeString:
    """Escape a message and turn each "(R6)" in it into a link to that rule."""
    page = reverse("rules")
    return mark_safe(
        RULE_REFERENCE.sub(
            lambda match: f'(<a href="{page}#r{match.group(1)}">R{match.group(1)}</a>)',
            str(escape(message)),
        )
    )
