"""The site's channel layers count each message an inbox was too full to take."""

from __future__ import annotations

import os
import uuid

import pytest
from channels.exceptions import ChannelFull
from django.conf import settings

from games.live import layers, metrics


def inbox_full() -> float:
    return metrics.INBOX_FULL._value.get()


def test_the_site_runs_on_the_counting_layers():
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] in (
        "games.live.layers.InMemoryChannelLayer",
        "games.live.layers.RedisPubSubChannelLayer",
    )


async def test_a_group_message_to_a_full_inbox_in_memory_is_counted():
    layer = layers.InMemoryChannelLayer(capacity=2)
    full, roomy = await layer.new_channel(), await layer.new_channel()
    for channel in (full, roomy):
        await layer.group_add("table-1", channel)
    await layer.send(full, {"type": "filler"})
    before = inbox_full()
    await layer.group_send("table-1", {"type": "table.html", "n": 1})
    await layer.group_send("table-1", {"type": "table.html", "n": 2})
    assert inbox_full() == before + 1
    assert [(await layer.receive(full))["type"] for _ in range(2)] == ["filler", "table.html"]
    assert [(await layer.receive(roomy))["n"] for _ in range(2)] == [1, 2]


async def test_a_message_to_a_full_channel_in_memory_is_refused_and_counted():
    layer = layers.InMemoryChannelLayer(capacity=1)
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "first"})
    before = inbox_full()
    with pytest.raises(ChannelFull):
        await layer.send(channel, {"type": "second"})
    assert inbox_full() == before + 1


@pytest.mark.redis
async def test_a_group_message_to_a_full_inbox_on_redis_is_counted_and_the_others_get_it():
    layer = layers.RedisPubSubChannelLayer(
        hosts=[os.environ["REDIS_URL"]], capacity=1, prefix=f"inbox-full-{uuid.uuid4().hex}"
    )
    try:
        full, roomy = await layer.new_channel(), await layer.new_channel()
        for channel in (full, roomy):
            await layer.group_add("table-1", channel)
        before = inbox_full()
        await layer.group_send("table-1", {"type": "table.html", "n": 1})
        assert (await layer.receive(roomy))["n"] == 1
        assert inbox_full() == before
        await layer.group_send("table-1", {"type": "table.html", "n": 2})
        assert (await layer.receive(roomy))["n"] == 2
        assert inbox_full() == before + 1
        assert (await layer.receive(full))["n"] == 1
    finally:
        await layer.flush()


async def test_expired_messages_in_memory_are_cleared_at_most_once_a_second(monkeypatch):
    layer = layers.InMemoryChannelLayer(expiry=1)
    stale = await layer.new_channel()
    await layer.send(stale, {"type": "stale"})
    now = [1000.0]
    monkeypatch.setattr(layers.time, "monotonic", lambda: now[0])
    real_time = layers.layers.time.time
    monkeypatch.setattr(layers.layers.time, "time", lambda: real_time() + 5)
    await layer.group_send("nobody", {"type": "look"})
    assert stale not in layer.channels, "the first look clears what expired"
    await layer.send(stale, {"type": "stale again"})
    monkeypatch.setattr(layers.layers.time, "time", lambda: real_time() + 10)
    await layer.group_send("nobody", {"type": "look"})
    assert stale in layer.channels, "no second look within the second"
    now[0] += layers.CLEAN_EVERY_SECONDS
    await layer.group_send("nobody", {"type": "look"})
    assert stale not in layer.channels
