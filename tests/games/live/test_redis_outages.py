"""A Redis outage, on a Redis of the test's own that it kills and starts again empty: it is
logged once when it starts and once when it ends, counted, the layer's receivers wait
through it instead of failing, and every channel of the process is in its groups again
afterwards and told so."""

from __future__ import annotations

import asyncio
import gc
import logging
import shutil
import time
from collections.abc import Iterator

import pytest

from games.live import layers, metrics, outages
from games.live.outages import UNREACHABLE
from tests.support.processes import OwnRedis

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server")


@pytest.fixture(autouse=True)
def no_outage_yet(monkeypatch) -> None:
    monkeypatch.setattr(outages, "OUTAGE", outages.Outage())


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    redis = OwnRedis()
    redis.start()
    yield redis
    redis.kill()


def layer_on(redis: OwnRedis) -> layers.RedisPubSubChannelLayer:
    host = {"address": redis.url, "socket_timeout": 15, "socket_connect_timeout": 5}
    return layers.RedisPubSubChannelLayer(hosts=[host], prefix="outage-test")


def outages_counted() -> float:
    return metrics.REDIS_OUTAGES._value.get()


async def receive_all(layer: layers.RedisPubSubChannelLayer, channels: list[str]) -> list[dict]:
    return list(
        await asyncio.wait_for(
            asyncio.gather(*(layer.receive(channel) for channel in channels)), timeout=10
        )
    )


async def test_an_outage_is_logged_once_as_it_starts_and_once_as_it_ends_and_counted(
    own_redis, caplog
):
    layer = layer_on(own_redis)
    channels = [await layer.new_channel() for _ in range(5)]
    for channel in channels:
        await layer.group_add("table-1", channel)
    before = outages_counted()
    caplog.set_level(logging.INFO)
    receiving = asyncio.ensure_future(receive_all(layer, channels))
    await asyncio.sleep(0.2)
    own_redis.kill()
    for _ in range(10):
        with pytest.raises(UNREACHABLE):
            await layer.group_send("table-1", {"type": "table.html"})
        await asyncio.sleep(0.15)
    own_redis.start()
    await asyncio.wait_for(asyncio.shield(receiving), timeout=10)
    gc.collect()
    told = [r for r in caplog.records if r.name.startswith(("games", "channels_redis", "asyncio"))]
    assert told, caplog.text
    assert [r.getMessage().split(":")[0] for r in told] == [
        "Redis is unreachable",
        "Redis is reachable again",
    ]
    assert all(r.exc_info is None for r in told)
    assert "after 1." in told[1].getMessage() or "after 2." in told[1].getMessage()
    assert outages_counted() == before + 1
    assert not receiving.exception()
    await layer.flush()


async def test_after_redis_restarts_empty_every_channel_is_in_its_groups_again_and_told(
    own_redis,
):
    layer = layer_on(own_redis)
    seat, spectator, scheduler = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("table-1", seat)
    await layer.group_add("table-1-seat-0", seat)
    await layer.group_add("table-1", spectator)
    await layer.group_add("table-1-spectators-ru", spectator)
    await layer.group_add("scheduler", scheduler)
    await layer.group_discard("table-1", spectator)
    receiving = asyncio.ensure_future(receive_all(layer, [seat, spectator, scheduler]))
    await asyncio.sleep(0.2)
    own_redis.kill()
    own_redis.start()
    assert [m["type"] for m in await receiving] == ["layer.resumed"] * 3
    await layer.group_send("table-1-seat-0", {"type": "table.html", "to": "seat"})
    await layer.group_send("table-1", {"type": "table.html", "to": "table"})
    await layer.group_send("scheduler", {"type": "scheduler.wake"})
    assert [m.get("to") for m in await receive_all(layer, [seat, seat])] == ["seat", "table"]
    assert (await receive_all(layer, [scheduler]))[0]["type"] == "scheduler.wake"
    await layer.group_send("table-1", {"type": "table.html", "to": "nobody"})
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(spectator), timeout=1)
    await layer.flush()


async def test_a_socket_joins_its_groups_during_an_outage_and_is_in_them_once_redis_is_back(
    own_redis,
):
    layer = layer_on(own_redis)
    early = await layer.new_channel()
    await layer.group_add("lobby", early)
    own_redis.kill()
    late = await layer.new_channel()
    await layer.group_add("lobby", late)
    own_redis.start()
    assert [m["type"] for m in await receive_all(layer, [early, late])] == ["layer.resumed"] * 2
    await layer.group_send("lobby", {"type": "lobby.html"})
    assert [m["type"] for m in await receive_all(layer, [early, late])] == ["lobby.html"] * 2
    await layer.flush()


async def test_after_redis_restarts_empty_every_process_hears_its_groups_joined_again(
    own_redis, monkeypatch
):
    joins = layers.Joins()
    monkeypatch.setattr(layers, "joins", joins)
    layer = layer_on(own_redis)
    seat = await layer.new_channel()
    await layer.group_add("table-1-seat-0", seat)
    receiving = asyncio.ensure_future(receive_all(layer, [seat]))
    await asyncio.sleep(0.2)
    own_redis.kill()
    restarted = time.monotonic()
    own_redis.start()
    assert [m["type"] for m in await receiving] == ["layer.resumed"]
    channel = "outage-test__group__table-1-seat-0"
    give_up = time.monotonic() + 10
    while joins.at.get(channel, float("-inf")) < restarted:
        assert time.monotonic() < give_up, "the group joined again was never told"
        await asyncio.sleep(0.02)
    await layer.flush()
