"""At most N uses in any window, per key, shared by connections and processes."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from games.live import ratelimit
from games.live.ratelimit import Limit, LocalCounter, RedisCounter

FIVE_IN_TEN = Limit("test-chat", count=5, seconds=10)


@pytest.fixture(autouse=True)
def in_process(settings):
    settings.REDIS_URL = ""


async def uses(limit: Limit, key: str, moments: list[float]) -> list[bool]:
    return [await ratelimit.allow(limit, key, now=moment) for moment in moments]


async def test_the_use_after_the_limit_is_refused_until_the_window_slides():
    assert await uses(FIVE_IN_TEN, "user:1", [0, 1, 2, 3, 4]) == [True] * 5
    assert await uses(FIVE_IN_TEN, "user:1", [5, 9.9]) == [False, False]
    assert await uses(FIVE_IN_TEN, "user:1", [10.0, 10.5, 11.0]) == [True, False, True]


async def test_refused_uses_are_not_counted():
    await uses(FIVE_IN_TEN, "user:1", [0, 0, 0, 0, 0])
    await uses(FIVE_IN_TEN, "user:1", [1] * 50)
    assert await uses(FIVE_IN_TEN, "user:1", [10, 10, 10, 10, 10, 10]) == [True] * 5 + [False]


async def test_keys_and_limits_have_their_own_budgets():
    await uses(FIVE_IN_TEN, "user:1", [0] * 5)
    assert await ratelimit.allow(FIVE_IN_TEN, "user:2", now=0)
    assert await ratelimit.allow(Limit("other", 5, 10), "user:1", now=0)


async def test_a_steady_human_pace_is_never_refused():
    pace = [i * 0.5 for i in range(600)]
    assert all(await uses(Limit("moves", 100, 20), "user:1", pace))


def test_stale_keys_are_swept_from_the_process():
    counter = LocalCounter()
    for n in range(LocalCounter.SWEEP_AT):
        counter.hit(FIVE_IN_TEN, f"ip:{n}", 0.0)
    counter.hit(FIVE_IN_TEN, "ip:late", 7200.0)
    assert list(counter.uses) == [("test-chat", "ip:late")]


def test_a_player_is_counted_by_account_and_anyone_else_by_address():
    player = SimpleNamespace(is_authenticated=True, pk=7)
    stranger = SimpleNamespace(is_authenticated=False, pk=None)
    assert ratelimit.client_key({"user": player, "client": ("10.0.0.1", 5)}) == "user:7"
    assert ratelimit.client_key({"user": stranger, "client": ("10.0.0.1", 5)}) == "ip:10.0.0.1"
    assert ratelimit.client_key({}) == "ip:unknown"


async def test_without_redis_answering_the_use_is_let_through(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    assert await ratelimit.allow(FIVE_IN_TEN, "user:1", now=0)


@pytest.mark.redis
async def test_two_processes_share_one_budget_in_redis(settings):
    url = os.environ["REDIS_URL"]
    first, second = RedisCounter(url, "test-rate"), RedisCounter(url, "test-rate")
    await first.client.delete("test-rate:rate:test-chat:user:1")
    try:
        assert [await first.hit(FIVE_IN_TEN, "user:1", float(n)) for n in range(3)] == [True] * 3
        assert [await second.hit(FIVE_IN_TEN, "user:1", 3.0) for _ in range(3)] == [
            True,
            True,
            False,
        ]
        assert not await first.hit(FIVE_IN_TEN, "user:1", 9.0)
        assert await first.hit(FIVE_IN_TEN, "user:1", 10.5)
        settings.REDIS_URL = url
        settings.REDIS_PREFIX = "test-rate"
        assert await ratelimit.allow(FIVE_IN_TEN, "user:2", now=0)
    finally:
        await first.client.delete(
            "test-rate:rate:test-chat:user:1", "test-rate:rate:test-chat:user:2"
        )
        await first.client.aclose()
        await second.client.aclose()
