from __future__ import annotations

from games.routing import websocket_urlpatterns

__all__ = ["websocket_urlpatterns"]
