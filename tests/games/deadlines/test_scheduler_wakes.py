"""The scheduler's wake-ups through the channel layer survive many short sleeps.

With channels_redis 4.3 on Python 3.11, the same stress on `asyncio.wait_for(layer.receive(
channel), timeout)` (the scheduler's old way to sleep) hung within a few hundred timed-out
waits: one wait of under 30 ms never returned, and about one message in twenty was lost.
A scheduler stuck like that is idle while its tables wait.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from channels.layers import get_channel_layer

from games.deadlines.scheduler import Wakes
from games.live.layers import RedisPubSubChannelLayer

WAITS = 300


async def stress(layer: Any) -> tuple[int, int, float]:
    """Hundreds of sleeps of 1-30 ms while wakes arrive at random: (sent, received, the
    longest sleep)."""
    wakes = Wakes(layer)
    await wakes.start()
    rng = random.Random(5)
    sent = 0

    async def send_wakes() -> None:
        nonlocal sent
        for _ in range(WAITS):
            await asyncio.sleep(rng.uniform(0, 0.03))
            await layer.send(wakes.channel, {"type": "scheduler.wake"})
            sent += 1

    sender = asyncio.create_task(send_wakes())
    longest = 0.0
    try:
        for _ in range(WAITS):
            began = time.monotonic()
            await asyncio.wait_for(wakes.wait(rng.uniform(0.001, 0.03)), 5)
            longest = max(longest, time.monotonic() - began)
        await asyncio.wait_for(sender, 30)
        for _ in range(100):
            if wakes.received >= sent:
                break
            await asyncio.sleep(0.05)
    finally:
        sender.cancel()
        await wakes.stop()
    return sent, wakes.received, longest


async def test_short_sleeps_in_memory_never_hang_and_every_wake_arrives(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    sent, received, longest = await stress(get_channel_layer())
    assert (sent, received) == (WAITS, WAITS)
    assert longest < 0.5


@pytest.mark.redis
async def test_short_sleeps_on_redis_never_hang_and_every_wake_arrives():
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)
    sent, received, longest = await stress(layer)
    assert (sent, received) == (WAITS, WAITS)
    assert longest < 0.5


async def test_a_stopped_listener_ends_without_being_cancelled(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    wakes = Wakes(get_channel_layer())
    await wakes.start()
    await wakes.join()
    await wakes.stop()
    assert wakes.task is not None and wakes.task.done() and not wakes.task.cancelled()
