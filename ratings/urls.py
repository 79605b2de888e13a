from __future__ import annotations

from django.urls import path

from ratings import views

urlpatterns = [
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
    path("games/<int:pk>/coach.json", views.coach_json, name="game_coach"),
]
