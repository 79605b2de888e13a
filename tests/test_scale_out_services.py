"""The scale-out setup talks to the real services: PostgreSQL and the Redis channel layer."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer
from django.db import connection

from games.live.layers import RedisPubSubChannelLayer


@pytest.mark.postgres
@pytest.mark.django_db
def test_database_url_selects_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.redis
async def test_redis_channel_layer_delivers_a_group_message() -> None:
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)
    channel = await layer.new_channel()
    await layer.group_add("scale-out-check", channel)
    await layer.group_send("scale-out-check", {"type": "check.message", "text": "hello"})
    message = await layer.receive(channel)
    await layer.group_discard("scale-out-check", channel)
    assert message == {"type": "check.message", "text": "hello"}
