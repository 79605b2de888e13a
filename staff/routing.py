from __future__ import annotations

from django.urls import path

from staff.consumers import StaffConsumer

websocket_urlpatterns = [path("ws/staff/", StaffConsumer.as_asgi())]
