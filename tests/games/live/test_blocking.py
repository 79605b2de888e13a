"""A writer's thread publishes what it committed to Redis itself, in one trip."""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import Any

import pytest
from channels.layers import get_channel_layer

from games.live import blocking, broadcast, metrics, outages
from games.live.layers import RedisPubSubChannelLayer


def pub_sub_layer(settings: Any, address: str, prefix: str = "asgi") -> Any:
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.live.layers.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [address], "prefix": prefix},
        }
    }
    return get_channel_layer()


@pytest.mark.redis
async def test_a_writers_thread_publishes_to_groups_and_sockets_in_the_order_it_sent(settings):
    layer = pub_sub_layer(settings, os.environ["REDIS_URL"], f"blocking-{uuid.uuid4().hex}")
    assert isinstance(layer, RedisPubSubChannelLayer)
    seat, spectator = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table-1-seat-0", seat)
    await layer.group_add("table-1-spectators-en", spectator)
    try:
        await asyncio.to_thread(
            broadcast.send_all,
            [
                ("table-1-seat-0", {"type": "table.html", "version": 1}),
                ("table-1-spectators-en", {"type": "table.html", "version": 1}),
                ("table-1-seat-0", {"type": "table.html", "version": 2}),
                broadcast.Reply(seat, {"type": "owner.answer", "ticket": 7}),
            ],
        )
        heard = [await asyncio.wait_for(layer.receive(seat), 5) for _ in range(3)]
        assert [message.get("version", message.get("ticket")) for message in heard] == [1, 2, 7]
        assert (await asyncio.wait_for(layer.receive(spectator), 5))["version"] == 1
    finally:
        await layer.flush()


def test_a_writers_thread_facing_a_redis_that_does_not_answer_drops_counts_and_reports(
    settings, monkeypatch
):
    pub_sub_layer(settings, "redis://127.0.0.1:1/0")
    monkeypatch.setattr(outages, "OUTAGE", outages.Outage())
    drops = metrics.LAYER_DROPS._value.get()
    broadcast.send_all(
        [("table-1", {"type": "table.html"}), ("table-1-seat-0", {"type": "table.html"})]
    )
    assert metrics.LAYER_DROPS._value.get() == drops + 2
    assert outages.OUTAGE.ongoing


async def test_a_group_is_published_on_the_channel_and_the_host_the_layer_gives_it(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.live.layers.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0", "redis://127.0.0.1:2/0"]},
        }
    }
    layer = get_channel_layer()
    redis = blocking.of(layer)
    assert redis is not None
    on_loop = layer._get_layer()
    for group in ("lobby", "staff", "table-1-seat-0", "table-12-spectators-ru"):
        name = on_loop._get_group_channel_name(group)
        assert redis.group_channel(group) == name
        assert redis.shard(name) == on_loop._shards.index(on_loop._get_shard(name))
    assert {redis.shard(redis.group_channel(f"table-{n}")) for n in range(20)} == {0, 1}


def test_only_a_redis_pub_sub_layer_is_published_to_from_a_thread(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    assert blocking.of(get_channel_layer()) is None
