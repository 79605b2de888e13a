"""The bare Channels stack that `load.py` measures the site against.

No database and no game: each socket of `/ws/bare/<table>/` joins the group of its
table, and one 1.5 KB frame per event is fanned out to that group through the same
channel layer and Daphne as the site's. A control socket (`/ws/bare-control/`) starts
the sender with `{"tables": N, "rate": events per second, "seconds": T}`; each frame
carries its table, a version and the moment it was sent, so the client can time it.

Serve it with `daphne benchmarks.bare_stack:application` (the site's settings pick the
in-memory layer or Redis from `REDIS_URL`).
"""

from __future__ import annotations

import asyncio
import heapq
import json
import os
import random
import time
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

FRAME_BYTES = 1536


def group(table: int) -> str:
    return f"bare-{table}"


def frame(table: int, version: int, sent: float) -> str:
    head = (
        f'<section id="game" hx-swap-oob="true" data-game-id="{table}" '
        f'data-version="{version}" data-sent="{sent:.6f}">'
    )
    tail = "</section>"
    return head + "x" * max(0, FRAME_BYTES - len(head) - len(tail)) + tail


async def send_events(tables: int, rate: float, seconds: float) -> None:
    """Every table's events at `rate / tables` a second each, evenly spaced with jitter."""
    layer = get_channel_layer()
    interval = tables / rate
    rng = random.Random(7)
    start = time.time()
    due = [(start + rng.uniform(0, interval), table) for table in range(tables)]
    heapq.heapify(due)
    versions = [0] * tables
    while due:
        at, table = heapq.heappop(due)
        if at > start + seconds:
            continue
        pause = at - time.time()
        if pause > 0:
            await asyncio.sleep(pause)
        versions[table] += 1
        sent = time.time()
        await layer.group_send(
            group(table), {"type": "bare.frame", "html": frame(table, versions[table], sent)}
        )
        heapq.heappush(due, (at + interval * rng.uniform(0.5, 1.5), table))


class Member(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = group(int(self.scope["url_route"]["kwargs"]["table"]))
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def bare_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])


class Control(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        order = json.loads(text_data or "{}")
        await send_events(int(order["tables"]), float(order["rate"]), float(order["seconds"]))
        await self.send(text_data="done")


application = ProtocolTypeRouter(
    {
        "websocket": URLRouter(
            [
                path("ws/bare/<int:table>/", Member.as_asgi()),
                path("ws/bare-control/", Control.as_asgi()),
            ]
        )
    }
)
