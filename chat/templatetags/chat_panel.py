"""`{% chat_panel table seat %}`: the table page's chat, for the person viewing it."""

from __future__ import annotations

from typing import Any

from django import template

from chat import rendering
from games.models import Table

register = template.Library()


@register.inclusion_tag("chat/panel.html", takes_context=True)
def chat_panel(context: template.Context, table: Table, seat: int | None) -> dict[str, Any]:
    return rendering.panel_context(table, context["request"].user, seat)
