"""A writer's deadline wakes the schedulers only when it is nearer than their next sweep."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.layers import get_channel_layer

from games import clock
from games.deadlines import scheduler

pytestmark = pytest.mark.usefixtures("in_memory_layer")


async def wakes_for(deadline_in: float) -> list[dict[str, Any]]:
    """The wake-ups a scheduler gets when a deadline `deadline_in` seconds away is written."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(scheduler.SCHEDULER_GROUP, channel)
    await asyncio.to_thread(scheduler.wake_for, clock.now() + deadline_in)
    received = []
    try:
        while True:
            received.append(await asyncio.wait_for(layer.receive(channel), 0.1))
    except TimeoutError:
        return received


async def test_a_deadline_nearer_than_the_next_sweep_wakes_the_schedulers():
    woken = await wakes_for(scheduler.SWEEP_SECONDS / 2)
    assert [message["type"] for message in woken] == ["scheduler.wake"]


async def test_a_deadline_already_due_wakes_the_schedulers():
    assert len(await wakes_for(-1.0)) == 1


async def test_a_deadline_beyond_the_next_sweep_sends_no_wake_up():
    assert await wakes_for(1.5) == []
