"""The line for the player (`#notice`): a refusal, linked to the rule or the table it
names, or a word from the staff."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeData, SafeString, mark_safe

from games.errors import GameError, SeatedElsewhere
from games.picture.rulebook import link_rules


def render_notice(message: str, *, level: str = "error", oob: bool = True) -> str:
    """A line for the player; `oob` when it travels with other fragments (a socket's)."""
    text = message if isinstance(message, SafeData) else link_rules(message)
    return render_to_string(
        "games/fragments/notice.html", {"message": text, "level": level, "oob": oob}
    )


def refusal_html(refusal: GameError, request: HttpRequest | None = None) -> SafeString:
    """A refusal as the page shows it: a sentence, with links where it names a rule or
    another table of the player's."""
    if isinstance(refusal, SeatedElsewhere):
        html = render_to_string(
            "games/fragments/seated_elsewhere.html", {"refusal": refusal}, request=request
        )
        return mark_safe(html.strip())
    return link_rules(str(refusal))
