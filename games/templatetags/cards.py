"""Card faces for pictures drawn directly in a template: {% card "TH" %}."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from games.picture.words import CardFace

register = template.Library()


@register.simple_tag
def card(code: str) -> SafeString:
    return render_to_string("games/fragments/card.html", {"face": CardFace.of(code)})
