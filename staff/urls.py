from __future__ import annotations

from django.urls import path
from django.views.generic import RedirectView

from staff import views

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="staff_tables"), name="staff"),
    path("tables/", views.control_room, name="staff_tables"),
    path("tables/<int:pk>/stop/", views.stop, name="staff_stop"),
    path("tables/<int:pk>/close/", views.close, name="staff_close"),
    path("tables/<int:pk>/lock/", views.lock, name="staff_lock"),
    path("tables/<int:pk>/unlock/", views.unlock, name="staff_unlock"),
    path("tables/<int:pk>/kick/", views.kick, name="staff_kick"),
    path("tables/<int:pk>/notice/", views.table_notice, name="staff_table_notice"),
    path("notices/", views.site_notice, name="staff_site_notice"),
    path("notices/<int:pk>/end/", views.end_site_notice, name="staff_end_site_notice"),
    path("pause/", views.pause, name="staff_pause"),
    path("resume/", views.resume, name="staff_resume"),
    path("players/", views.player_list, name="staff_players"),
    path("players/<int:pk>/", views.player, name="staff_player"),
    path("players/<int:pk>/deactivate/", views.deactivate, name="staff_deactivate"),
    path("players/<int:pk>/reactivate/", views.reactivate, name="staff_reactivate"),
    path("players/<int:pk>/chips/", views.adjust, name="staff_adjust"),
    path("audit/", views.audit_trail, name="staff_audit"),
    path("signals/", views.signals, name="staff_signals"),
]
