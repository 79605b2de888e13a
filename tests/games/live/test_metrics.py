"""`/metrics`: the Prometheus text for the staff and for a scraper with the token."""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db.models import F
from django.test import Client

from accounts.models import Account, User
from accounts.services import create_player
from games.deadlines import timing
from games.live import broadcast, metrics
from games.live.consumers import TableConsumer
from games.live.sockets import SERVER_ERROR
from games.models import Game
from games.table import tables
from games.table.committed import GameCommitted
from tests.support.sockets import connected, until_closed
from tests.support.tables import open_table, start_when_due

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_memory_layer")]


@pytest.fixture
def token(settings):
    settings.METRICS_TOKEN = "scrape-me-0123456789"
    return settings.METRICS_TOKEN


def test_the_staff_read_the_metrics_in_prometheus_text(client: Client, token):
    staff = create_player("olga", "olga-runs-durak")
    User.objects.filter(pk=staff.pk).update(is_staff=True)
    client.force_login(User.objects.get(pk=staff.pk))
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    for name in (
        "durak_tables_running gauge",
        "durak_sockets_connected gauge",
        "durak_game_versions counter",
        "durak_deadline_lateness_seconds histogram",
        "durak_render_seconds histogram",
        "durak_layer_sends counter",
        "durak_layer_send_failures counter",
        "durak_layer_inbox_full counter",
        "durak_sockets_failed counter",
        "durak_ledger_audit_ok gauge",
    ):
        metric, kind = name.split()
        assert re.search(rf"^# TYPE {metric}(_total)? {kind}$", text, re.MULTILINE), name
    assert "durak_ledger_audit_ok 1.0" in text


def test_a_scraper_with_the_token_reads_them_and_anyone_else_finds_nothing(client: Client, token):
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer guess").status_code == 404
    assert client.get("/metrics").status_code == 404
    client.force_login(create_player("anna", "anna-plays-durak"))
    assert client.get("/metrics").status_code == 404


def test_without_a_token_no_scraper_gets_in(client: Client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


def test_commits_and_late_deadlines_are_counted(client: Client, token):
    versions = metrics.ACTIONS._value.get()
    timing.log_commit(GameCommitted(game=Game(pk=1, version=2), events=()))
    timing.fired("game", 1, 100.0, 100.4)
    assert metrics.ACTIONS._value.get() == versions + 1
    text = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode()
    assert 'durak_deadline_lateness_seconds_bucket{kind="game",le="0.5"}' in text


def scraped(client: Client, token: str) -> str:
    return client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode()


def test_running_tables_are_read_from_the_database(
    client: Client, token, anna, boris, frozen_clock
):
    assert "durak_tables_running 0.0" in scraped(client, token)
    table = open_table(anna)
    tables.join(table.pk, boris)
    start_when_due(table, frozen_clock)
    assert "durak_tables_running 1.0" in scraped(client, token)


def test_a_ledger_that_does_not_audit_clean_reads_0(client: Client, token, anna, monkeypatch):
    monkeypatch.setattr(metrics.DATABASE, "audited_at", float("-inf"))
    assert "durak_ledger_audit_ok 1.0" in scraped(client, token)
    Account.objects.filter(user=anna).update(balance=F("balance") + 1)
    assert "durak_ledger_audit_ok 1.0" in scraped(client, token), "audited at most once a minute"
    monkeypatch.setattr(metrics.DATABASE, "audited_at", float("-inf"))
    assert "durak_ledger_audit_ok 0.0" in scraped(client, token)


def test_each_group_send_is_counted_and_a_refused_one_too(monkeypatch):
    layer = get_channel_layer()
    sends, failures = metrics.LAYER_SENDS._value.get(), metrics.LAYER_DROPS._value.get()
    broadcast.send_all([("table-1", {"type": "table.html"}), ("table-2", {"type": "table.html"})])
    assert metrics.LAYER_SENDS._value.get() == sends + 2

    async def refuse(group: str, message: dict[str, Any]) -> None:
        raise ConnectionError("the layer is down")

    monkeypatch.setattr(layer, "group_send", refuse)
    broadcast.send(broadcast.LOBBY_GROUP, {"type": "lobby.html"})
    assert metrics.LAYER_DROPS._value.get() == failures + 1


def rendered() -> float:
    return next(
        sample.value
        for metric in metrics.RENDER.collect()
        for sample in metric.samples
        if sample.name == "durak_render_seconds_count"
    )


def sockets_open(kind: str) -> float:
    return metrics.SOCKETS.labels(kind)._value.get()


@pytest.mark.django_db(transaction=True)
async def test_sockets_are_counted_open_and_failed_and_pictures_timed(
    anna, boris, frozen_clock, sockets, monkeypatch
):
    table = await database_sync_to_async(open_table)(anna)
    open_before = sockets_open("TableConsumer")
    socket = await connected(sockets, table, anna)
    assert sockets_open("TableConsumer") == open_before + 1
    drawn = rendered()
    await database_sync_to_async(tables.join)(table.pk, boris)
    await socket.drain()
    assert rendered() > drawn, "the waiting room was drawn for anna's seat"
    failed = metrics.FAILED_SOCKETS.labels("TableConsumer")._value.get()

    async def broken(self: Any, event: dict[str, Any]) -> None:
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(TableConsumer, "table_presence", broken)
    await database_sync_to_async(broadcast.presence_changed)(table.pk, 1, True)
    _frames, code = await until_closed(socket)
    assert code == SERVER_ERROR
    sockets.remove(socket)
    assert metrics.FAILED_SOCKETS.labels("TableConsumer")._value.get() == failed + 1
    assert sockets_open("TableConsumer") == open_before
