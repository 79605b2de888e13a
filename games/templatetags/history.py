from __future__ import annotations

from datetime import timedelta

from django import template

register = template.Library()


@register.filter
def duration(span: timedelta) -> str:
    """``4:05`` or ``1:02:07``: how long a game lasted."""
    seconds = max(0, int(span.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


@register.filter
def index(items: list[object], position: int) -> object:
    """``items[position]``, or nothing when there is no such entry."""
    try:
        return items[position]
    except (IndexError, TypeError):
        return ""
