from __future__ import annotations

from django.urls import path

from games.live.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
