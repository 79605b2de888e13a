"""What the site measures, in the Prometheus text format at `/metrics`.

Counters and histograms are this process's (scrape each server process); running tables
and the ledger audit are read from the database when scraped.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

REGISTRY = CollectorRegistry()

SOCKETS = Gauge(
    "durak_sockets_connected", "Open sockets in this process.", ["kind"], registry=REGISTRY
)
FAILED_SOCKETS = Counter(
    "durak_sockets_failed", "Sockets that failed on an exception.", ["kind"], registry=REGISTRY
)
ACTIONS = Counter(
    "durak_game_versions", "Game versions committed (moves, deadlines, bots).", registry=REGISTRY
)
LATENESS = Histogram(
    "durak_deadline_lateness_seconds",
    "How late the scheduler fired a deadline.",
    ["kind"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10),
    registry=REGISTRY,
)
RENDER = Histogram(
    "durak_render_seconds",
    "Rendering one audience's picture of a table.",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1),
    registry=REGISTRY,
)
LAYER_SENDS = Counter("durak_layer_sends", "Group sends to the channel layer.", registry=REGISTRY)
LAYER_DROPS = Counter(
    "durak_layer_send_failures", "Group sends the channel layer refused.", registry=REGISTRY
)
WHOLE_PICTURES = Counter(
    "durak_whole_pictures",
    "Whole pictures a table socket sent instead of changes it could not apply.",
    registry=REGISTRY,
)
INBOX_FULL = Counter(
    "durak_layer_inbox_full",
    "Messages an inbox was too full to take: lost for its sockets (games/live/layers.py).",
    registry=REGISTRY,
)
REDIS_OUTAGES = Counter(
    "durak_redis_outages",
    "Times this process lost Redis (each logged once as it began and once as it ended).",
    registry=REGISTRY,
)
REDIS_OUTAGE_SECONDS = Counter(
    "durak_redis_outage_seconds",
    "Seconds this process could not reach Redis, counted as each outage ended.",
    registry=REGISTRY,
)
OWNER_MOVES = Counter(
    "durak_owner_moves",
    "Moves a socket sent to its game's owner (forwarded), and those its server carried out "
    "itself when the owner never answered (taken_back; games/live/owners.py).",
    ["outcome"],
    registry=REGISTRY,
)

AUDIT_EVERY = 60.0


class DatabaseCollector(Collector):
    """Running tables, and whether the chip ledger audits clean (checked once a minute)."""

    def __init__(self) -> None:
        self.audited_at = float("-inf")
        self.audit_ok = 0.0

    def collect(self) -> Iterator[Any]:
        from accounts import ledger
        from games.models import Table

        running = GaugeMetricFamily("durak_tables_running", "Tables with a game running.")
        running.add_metric([], Table.objects.filter(status=Table.Status.PLAYING).count())
        yield running
        if time.monotonic() - self.audited_at > AUDIT_EVERY:
            self.audit_ok = float(not ledger.audit().problems)
            self.audited_at = time.monotonic()
        audit = GaugeMetricFamily(
            "durak_ledger_audit_ok", "1 when the last ledger audit found nothing wrong."
        )
        audit.add_metric([], self.audit_ok)
        yield audit


DATABASE = DatabaseCollector()
REGISTRY.register(DATABASE)


def page(request: HttpRequest) -> HttpResponse:
    """For the staff, and for a scraper sending `Authorization: Bearer <DURAK_METRICS_TOKEN>`;
    anyone else finds nothing here."""
    token = settings.METRICS_TOKEN
    sent = request.headers.get("Authorization", "")
    scraper = bool(token) and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())
    if not (scraper or (request.user.is_authenticated and request.user.is_staff)):
        raise Http404
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
