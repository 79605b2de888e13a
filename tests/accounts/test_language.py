from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from accounts.services import create_player

pytestmark = pytest.mark.django_db


def test_russian_is_the_default_language():
    page = Client().get("/")
    assert '<html lang="ru">' in page.content.decode()


def test_the_switcher_changes_the_language_and_remembers_it_for_the_player(client):
    player = create_player("dasha", "a-long-enough-password-42")
    client.force_login(player)
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.language == "en"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_a_player_sees_their_language_on_a_new_device(client):
    player = create_player("egor", "a-long-enough-password-42")
    player.language = "en"
    player.save()
    client.force_login(player)
    assert '<html lang="en">' in client.get("/").content.decode()


def test_an_unknown_language_changes_nothing(client):
    player = create_player("fedor", "a-long-enough-password-42")
    client.force_login(player)
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    player.refresh_from_db()
    assert player.language == ""
