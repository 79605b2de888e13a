"""The quick reactions: a few emoji and short phrases, each shown in the reader's language."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

REACTIONS: dict[str, str | Promise] = {
    "thumbs-up": "👍",
    "laugh": "😄",
    "wow": "😮",
    "sad": "😢",
    "well-played": _("Well played"),
    "thanks": _("Thanks"),
    "oops": _("Oops"),
    "hello": _("Hello"),
}


def label(code: str) -> str:
    """What a reaction says, in the active language."""
    return str(REACTIONS[code])
