"""Every page is sent with the site's Content Security Policy and holds nothing it would
block: no inline script, event handler, style attribute or `javascript:` URL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import time_machine
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.urls import path, reverse

from accounts.models import User
from accounts.services import create_player
from durak_site.urls import urlpatterns as site_urls
from games.models import Game
from games.records import botmatch
from games.records.export import export
from games.table import play, tables
from tests.support.inline_code import inline_code
from tests.support.tables import open_table

POLICY = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
)


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


urlpatterns = [*site_urls, path("broken/", broken)]
handler500 = "durak_site.error_pages.server_error"


def browser(user: User | None = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
    if user is not None:
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def directives(response: Any) -> dict[str, str]:
    header = response.headers.get("Content-Security-Policy", "")
    parts = (part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return {part[0]: part[1] if len(part) > 1 else "" for part in parts}


def assert_under_the_policy(response: Any, status: int = 200) -> None:
    assert response.status_code == status, (response.request["PATH_INFO"], response.status_code)
    policy = directives(response)
    header = response.headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in header and "'unsafe-eval'" not in header, header
    for directive in POLICY:
        name, sources = directive.split(" ", 1)
        assert policy.get(name) == sources, (name, header)
    assert policy["connect-src"] == "'self' ws://testserver", header
    page = response.content.decode()
    assert inline_code(page) == [], response.request["PATH_INFO"]


@pytest.fixture
def people(db: None) -> dict[str, User]:
    staff = create_player("sofia", "sofia-runs-the-site")
    User.objects.filter(pk=staff.pk).update(is_staff=True)
    root = create_player("root", "root-runs-the-site")
    User.objects.filter(pk=root.pk).update(is_staff=True, is_superuser=True)
    return {
        "anna": create_player("anna", "anna-plays-durak"),
        "staff": User.objects.get(pk=staff.pk),
        "root": User.objects.get(pk=root.pk),
    }


@pytest.fixture
def finished(people: dict[str, User]) -> Game:
    return botmatch.play_bots(1, 3, seat=people["anna"], stake=0)[0]


@pytest.fixture
def running(people: dict[str, User]) -> Iterator[Game]:
    """A game in play at anna's table, and a table waiting for players."""
    with time_machine.travel(1_800_000_000.0, tick=False) as traveller:
        table = open_table(people["anna"], stake=0)
        tables.add_bot(table.pk, people["anna"], "easy")
        traveller.shift(tables.START_DELAY + 0.01)
        game = play.start(table.pk)
        assert game is not None
        waiting = create_player("vera", "vera-plays-durak")
        open_table(waiting, stake=10, seats=3, bots_allowed=False)
        yield game


def test_the_players_pages_are_sent_under_the_policy(people, finished, running):
    anna = browser(people["anna"])
    for url in (
        "/",
        f"/tables/{running.table_id}/",
        "/tables/new/",
        f"/games/{finished.pk}/",
        "/history/",
        "/replay/",
        "/leaderboard/",
        "/rules/",
        "/accounts/profile/",
        "/players/anna/",
        "/accounts/password/",
    ):
        assert_under_the_policy(anna.get(url))


def test_the_pages_of_visitors_are_sent_under_the_policy(people, finished, running):
    visitor = browser()
    for url in (
        "/",
        f"/tables/{running.table_id}/",
        f"/games/{finished.pk}/",
        "/leaderboard/",
        "/rules/",
        "/accounts/login/",
        "/accounts/signup/",
    ):
        assert_under_the_policy(visitor.get(url))


def test_a_refused_login_and_a_locked_out_one_are_sent_under_the_policy(people, settings):
    settings.AXES_FAILURE_LIMIT = 2
    visitor = browser()
    wrong = {"username": "anna", "password": "not-her-password"}
    assert_under_the_policy(visitor.post("/accounts/login/", wrong))
    locked = visitor.post("/accounts/login/", wrong)
    assert_under_the_policy(locked, status=429)


def test_the_staff_pages_are_sent_under_the_policy(people, finished, running):
    staff = browser(people["staff"])
    for url in (
        "/staff/tables/",
        "/staff/players/",
        f"/staff/players/{people['anna'].pk}/",
        "/staff/audit/",
        "/staff/signals/",
    ):
        assert_under_the_policy(staff.get(url))


def test_the_admin_is_sent_under_the_policy(people, finished, running):
    root = browser(people["root"])
    assert_under_the_policy(root.get(reverse("admin:index")))
    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        assert_under_the_policy(
            root.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        )
        first = model_admin.get_queryset(root_request(people["root"])).first()
        if first is not None:
            change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
            assert_under_the_policy(root.get(change))
    assert_under_the_policy(browser().get(reverse("admin:login")))


def root_request(user: User) -> Any:
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


@override_settings(ROOT_URLCONF=__name__)
def test_the_error_pages_are_sent_under_the_policy(people):
    assert_under_the_policy(browser().get("/no-such-page/"), status=404)
    assert_under_the_policy(browser(people["anna"]).get("/staff/tables/"), status=403)
    assert_under_the_policy(browser().get("/broken/"), status=500)


def test_a_replayed_file_is_answered_under_the_policy(people, finished):
    response = browser().post(
        "/replay/frames.json", export(finished), content_type="application/json"
    )
    assert response.status_code == 200
    assert "'unsafe-inline'" not in response.headers["Content-Security-Policy"]


def test_behind_https_the_sockets_origin_is_wss(people, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    response = browser().get("/rules/", HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="localhost")
    assert directives(response)["connect-src"] == "'self' wss://localhost"


def test_the_check_finds_each_kind_of_inline_code():
    page = """<select onchange="this.form.submit()"></select><p style="color: red">x</p>
    <script>alert(1)</script><script src="/static/js/table.js"></script>
    <script type="application/json" id="data">{}</script><a href="javascript:void(0)">a</a>
    <style>p {}</style><svg><rect style="fill: red"/></svg>"""
    assert [found.split(":")[0] for found in inline_code(page)] == [
        "<select onchange=...>",
        '<p style="color',
        "<script> without src",
        '<a href="javascript',
        "<style>",
        '<rect style="fill',
    ]
