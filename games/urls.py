from __future__ import annotations

from django.urls import path

from games import views
from games.live.consumers import LobbyConsumer, TableConsumer
from games.records import history_views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/quick/", views.quick_play, name="quick_play"),
    path("tables/<int:pk>/", views.table_page, name="table"),
    path("tables/<int:pk>/join/", views.join, name="table_join"),
    path("tables/<int:pk>/leave/", views.leave, name="table_leave"),
    path("tables/<int:pk>/bots/", views.add_bot, name="table_add_bot"),
    path("tables/<int:pk>/bots/remove/", views.remove_bot, name="table_remove_bot"),
    path("tables/<int:pk>/again/", views.play_again, name="table_play_again"),
    path("tables/<int:pk>/seed/", history_views.contribute_seed, name="table_seed"),
    path("games/<int:pk>/", views.game_history, name="game_history"),
    path("games/<int:pk>/export.json", history_views.export_json, name="game_export"),
    path("games/<int:pk>/replay.json", history_views.replay_json, name="game_replay"),
    path("games/<int:pk>/practice/", history_views.practise, name="game_practice"),
    path("history/", history_views.history_page, name="history"),
    path("replay/", history_views.replay_file, name="replay_file"),
    path("replay/frames.json", history_views.replay_frames, name="replay_frames"),
]

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
