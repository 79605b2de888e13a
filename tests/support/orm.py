"""Model instances compared as values."""

from __future__ import annotations

from typing import Any

from django.db.models import Model


def every_value(instance: Model) -> dict[str, Any]:
    """Each concrete field's value, by its attribute name."""
    return {
        each.attname: getattr(instance, each.attname) for each in instance._meta.concrete_fields
    }
