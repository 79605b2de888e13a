"""`/metrics`: the Prometheus text for the staff and for a scraper with the token."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import create_player
from games import metrics, timing

pytestmark = pytest.mark.django_db


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
    timing.committed(1, 2)
    timing.fired("game", 1, 100.0, 100.4)
    assert metrics.ACTIONS._value.get() == versions + 1
    text = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode()
    assert 'durak_deadline_lateness_seconds_bucket{kind="game",le="0.5"}' in text
