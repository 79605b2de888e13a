"""Card faces in templates: {% card "TH" %} by its code, {{ face|face }} for a `CardFace`.
Each face is drawn from `games/fragments/card.html` once and kept: the game's pieces show
the same few dozen faces over and over."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from games.picture.words import CardFace

register = template.Library()


@register.simple_tag
def card(code: str) -> SafeString:
    return drawn_face(CardFace.of(code))


@register.filter(name="face")
def face_filter(face: CardFace) -> SafeString:
    return drawn_face(face)


@lru_cache(maxsize=256)
def drawn_face(face: CardFace) -> SafeString:
    return SafeString(render_to_string("games/fragments/card.html", {"face": face}))
