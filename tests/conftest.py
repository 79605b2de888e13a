"""Suite-wide rules: what runs where, failing (not skipping) under CI, and the fixtures of
tests/support that every folder may ask for by name."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.utils import translation

pytest.register_assert_rewrite("tests.support")
pytest_plugins = [
    "tests.support.ledger_audit",
    "tests.support.players",
    "tests.support.sockets",
    "tests.support.tables",
]
SCALE_OUT_MARKERS = ("postgres", "redis", "cluster")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def missing_service(marker: str) -> str | None:
    if marker in ("postgres", "cluster") and not os.environ.get("DATABASE_URL", "").startswith(
        "postgres"
    ):
        return "DATABASE_URL does not point at PostgreSQL"
    if marker in ("redis", "cluster") and not os.environ.get("REDIS_URL"):
        return "REDIS_URL is not set"
    return None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's sync API keeps an event loop running in the main
    thread for the rest of the session, where asyncio tests could no longer start theirs."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in SCALE_OUT_MARKERS:
        if item.get_closest_marker(marker) is None:
            continue
        reason = missing_service(marker)
        if reason is None:
            continue
        if in_ci():
            pytest.fail(f"{marker} suite: {reason}", pytrace=False)
        pytest.skip(f"{marker} suite: {reason}")


@pytest.fixture(autouse=True)
def in_english() -> Iterator[None]:
    """The tests read the English messages; the Russian ones are checked by the catalogue
    (and by the tests that ask for Russian)."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> Iterator[None]:
    """Every test starts with full budgets and an empty cache (ids and frozen clocks repeat
    between tests)."""
    from django.core.cache import cache

    from games.live import ratelimit

    ratelimit.forget_all()
    cache.clear()
    yield
    ratelimit.LOCAL.clear()


@pytest.fixture(autouse=True)
def nothing_held() -> Iterator[None]:
    """No test starts from a game another test's writer held: game ids repeat between tests'
    databases, and so may a game's fingerprint."""
    from games.table.held_games import held_games

    held_games.games.clear()
    yield
    held_games.games.clear()
