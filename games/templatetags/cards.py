"""Card faces in templates: {% card "TH" %} by its code, {{ face|face }} for a `CardFace`.
Each face is drawn from `games/fragments/card.html` once and kept: the game's pieces show
the same few dozen faces over and over."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from games.picture.words import CardFace, drawn_face

register = template.Library()


@register.simple_tag
def card(code: str) -> SafeString:
    return drawn_face(CardFace.of(code))


@register.filter(name="face")
def face_filter(face: CardFace) -> SafeString:
    return drawn_face(face)
