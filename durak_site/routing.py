from __future__ import annotations

from games.urls import websocket_urlpatterns as game_sockets
from staff.routing import websocket_urlpatterns as staff_sockets

websocket_urlpatterns = [*game_sockets, *staff_sockets]
