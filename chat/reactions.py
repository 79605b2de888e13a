"""The quick reactions: four faces and gestures drawn as pictures (an emoji font is not on
every machine) and a few short phrases, each named in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

REACTIONS: dict[str, Promise] = {
    "thumbs-up": _("thumbs up"),
    "laugh": _("laughing"),
    "wow": _("surprised"),
    "sad": _("sad"),
    "well-played": _("Well played"),
    "thanks": _("Thanks"),
    "oops": _("Oops"),
    "hello": _("Hello"),
}
PICTURED = frozenset({"thumbs-up", "laugh", "wow", "sad"})
"""Reactions shown as `static/img/reactions/<code>.svg`, with their name as its text."""


@dataclass(frozen=True)
class Reaction:
    code: str
    words: str
    picture: str
    """The picture's static path; empty for a phrase."""


def label(code: str) -> str:
    """What a reaction says, in the active language."""
    return str(REACTIONS[code])


def shown(code: str) -> Reaction:
    picture = f"img/reactions/{code}.svg" if code in PICTURED else ""
    return Reaction(code, label(code), picture)
