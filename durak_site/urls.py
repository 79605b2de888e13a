from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts.language import set_language
from durak_site import error_pages
from games.live import metrics
from games.picture import rulebook

urlpatterns = [
    path("favicon.ico", error_pages.favicon),
    path("admin/", admin.site.urls),
    path("staff/", include("staff.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("rules/", rulebook.rules, name="rules"),
    path("metrics", metrics.page, name="metrics"),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("ratings.urls")),
]

handler403 = "durak_site.error_pages.forbidden"
handler404 = "durak_site.error_pages.not_found"
handler500 = "durak_site.error_pages.server_error"
