from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts.language import set_language
from games import rulebook

urlpatterns = [
    path("admin/", admin.site.urls),
    path("staff/", include("staff.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("rules/", rulebook.rules, name="rules"),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
]
