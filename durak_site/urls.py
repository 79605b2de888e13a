from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts.language import set_language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
]
