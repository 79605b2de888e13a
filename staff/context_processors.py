from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from staff import switches


def site_notices(request: HttpRequest) -> dict[str, Any]:
    """The banners every page shows."""
    return {"site_banners": switches.banners()}
