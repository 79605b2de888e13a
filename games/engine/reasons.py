"""Why an action is refused, in words a player understands, ready for translation.

A `Reason` is the English text itself (a `str`), and also carries its template and
values, so a site can show it in the player's language. `gettext_noop` only marks a
template for the translation catalogue: the engine stays pure and English.
"""

from __future__ import annotations


class Reason(str):
    template: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Reason:
        reason = super().__new__(cls, template.format(**values))
        reason.template = template
        reason.values = values
        return reason


def gettext_noop(message: str) -> str:
    return message
