from __future__ import annotations

import logging

import pytest
from django.test import Client, override_settings
from django.urls import path

from durak_site.urls import urlpatterns as site_urls


def broken(request):
    raise RuntimeError("a bug")


urlpatterns = [*site_urls, path("broken/", broken)]
handler500 = "durak_site.error_pages.server_error"


@pytest.mark.django_db
def test_an_unknown_page_is_a_404_in_the_sites_layout_with_a_way_back_to_the_lobby(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response.status_code == 404
    assert 'class="site-header"' in page and "Not found" in page
    assert 'data-action="back-to-lobby"' in page and 'href="/"' in page


@pytest.mark.django_db
def test_the_404_page_speaks_russian_by_default(client):
    page = client.get("/no-such-page/").content.decode()
    assert "Не найдено" in page and "Вернуться в лобби" in page


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__)
def test_a_server_error_is_a_500_in_the_sites_layout():
    client = Client(raise_request_exception=False)
    response = client.get("/broken/", HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response.status_code == 500
    assert 'class="site-header"' in page and "Your chips are safe" in page


@pytest.mark.django_db
def test_the_favicon_is_found_where_browsers_look_for_it(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 or response.status_code == 302
    assert response["Location"].endswith("img/favicon.svg")


@pytest.mark.django_db
def test_a_refusal_is_logged_as_one_line_without_a_traceback(client, caplog):
    from accounts.services import create_player

    client.force_login(create_player("anna", "anna-plays-durak"))
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client.get("/staff/tables/").status_code == 403
    (line,) = [record for record in caplog.records if record.name == "django.request"]
    assert line.exc_info is None and "/staff/tables/" in line.getMessage()
    assert "\n" not in caplog.text.strip()
