"""A picture is drawn only for an audience some socket listens as."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import clock
from games.live import blocking, broadcast, layers, listeners, outages
from games.live.layers import RedisPubSubChannelLayer
from games.models import Table
from games.table import play, tables
from tests.support.tables import open_table, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


@pytest.fixture
def layer(settings: Any) -> Any:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return get_channel_layer()


def listen(layer: Any, group: str) -> str:
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group, channel)
    return channel


@pytest.mark.django_db(transaction=True)
def test_only_the_languages_spectators_read_and_the_seats_online_are_rendered(
    anna, boris, frozen_clock, layer, monkeypatch
):
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    listen(layer, broadcast.spectators_group(table.pk, "en"))
    listen(layer, broadcast.seat_group(table.pk, 0))
    sent: list[list[broadcast.Message]] = []
    monkeypatch.setattr(broadcast, "send_all", sent.append)
    game.refresh_from_db()
    assert game.deadline_at is not None
    play.tick(game.pk, frozen_clock.past_deadline(game, 0.1))
    pictures = {
        group: list(message["html"])
        for batch in sent
        for group, message in batch
        if message["type"] == "table.html"
    }
    assert pictures == {
        broadcast.spectators_group(table.pk, "en"): ["en"],
        broadcast.seat_group(table.pk, 0): ["*"],
    }


def test_groups_without_members_are_not_listened_to(layer):
    listen(layer, "table-1-spectators-ru")
    assert listeners.listening(["table-1-spectators-ru", "table-1-spectators-en"]) == {
        "table-1-spectators-ru"
    }


@pytest.mark.redis
async def test_redis_groups_without_members_are_not_listened_to():
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)
    channel = await layer.new_channel()
    await layer.group_add("listeners-check-ru", channel)
    try:
        asked = ["listeners-check-ru", "listeners-check-en"]
        assert await asyncio.to_thread(listeners.members_of, layer, asked) == {"listeners-check-ru"}
    finally:
        await layer.group_discard("listeners-check-ru", channel)


def pub_sub_layer(settings: Any, address: str, prefix: str = "asgi") -> Any:
    """The site's Redis layer, at `address`; nothing here connects to it before it is used."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.live.layers.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [address], "prefix": prefix},
        }
    }
    return get_channel_layer()


def test_a_group_found_listened_to_is_not_asked_of_again_for_a_second_an_empty_one_is(
    settings, monkeypatch
):
    pub_sub_layer(settings, "redis://127.0.0.1:6379/9")
    asked: list[list[str]] = []

    def members_of(layer: Any, groups: list[str]) -> set[str]:
        asked.append(groups)
        return {group for group in groups if group.endswith("-ru")}

    monkeypatch.setattr(listeners, "members_of", members_of)
    monkeypatch.setattr(listeners, "heard", listeners.Heard())
    groups = ["table-1-spectators-ru", "table-1-spectators-en"]
    assert listeners.listening(groups) == {"table-1-spectators-ru"}
    assert listeners.listening(groups) == {"table-1-spectators-ru"}
    assert asked == [groups, ["table-1-spectators-en"]]


def test_a_redis_that_does_not_answer_counts_every_group_listened_to_and_is_reported(
    settings, monkeypatch
):
    layer = pub_sub_layer(settings, "redis://127.0.0.1:1/0")
    monkeypatch.setattr(outages, "OUTAGE", outages.Outage())
    groups = ["table-1-spectators-ru", "table-1-spectators-en"]
    assert listeners.members_of(layer, groups) == set(groups)
    assert outages.OUTAGE.failures == 1


def test_what_was_heard_is_trusted_for_a_second_then_asked_again():
    heard = listeners.Heard()
    heard.found(["lobby"], now=100.0)
    assert heard.among(["lobby", "staff"], now=100.0 + listeners.HEARD_SECONDS - 0.01) == {"lobby"}
    assert heard.among(["lobby"], now=100.0 + listeners.HEARD_SECONDS) == set()


def recorded_sends(monkeypatch: pytest.MonkeyPatch) -> list[broadcast.Message]:
    sent: list[broadcast.Message] = []
    monkeypatch.setattr(broadcast, "send_all", sent.extend)
    return sent


@pytest.mark.django_db
def test_a_tables_lobby_row_is_drawn_only_while_someone_has_the_lobby_open(
    anna, layer, monkeypatch
):
    table = open_table(anna)
    sent = recorded_sends(monkeypatch)
    broadcast.table_changed(table.pk)
    assert "lobby.html" not in [message["type"] for _group, message in sent]
    listen(layer, broadcast.LOBBY_GROUP)
    broadcast.table_changed(table.pk)
    assert [group for group, message in sent if message["type"] == "lobby.html"] == [
        broadcast.LOBBY_GROUP
    ]


@pytest.mark.django_db
def test_a_table_told_how_long_it_waits_sends_only_its_status_line_to_those_watching(
    anna, layer, monkeypatch, django_assert_num_queries
):
    table = open_table(anna)
    Table.objects.filter(pk=table.pk).update(
        starts_at=clock.to_datetime(clock.now()), busy_until=clock.to_datetime(clock.now() + 60)
    )
    listen(layer, broadcast.LOBBY_GROUP)
    sent = recorded_sends(monkeypatch)
    with django_assert_num_queries(0):
        broadcast.line_told(table.pk)
    assert sent == [], "nobody watches the table: nothing is read or drawn"
    listen(layer, broadcast.public_group(table.pk))
    listen(layer, broadcast.spectators_group(table.pk, "ru"))
    broadcast.line_told(table.pk)
    assert [(group, message["type"]) for group, message in sent] == [
        (broadcast.spectators_group(table.pk, "ru"), "table.html")
    ]
    frame = sent[0][1]
    assert frame["piece"] is True and frame["version"] is None and frame["game"] is None
    line = frame["html"]["ru"]
    assert line.startswith('<p id="waiting-status" hx-swap-oob="true" class="starting busy"')
    assert "60" in line and 'id="game"' not in line, "the status line alone, not the room"


def test_a_group_found_empty_stays_empty_while_no_join_to_it_is_heard(monkeypatch):
    joins = layers.Joins()
    monkeypatch.setattr(listeners, "joins", joins)
    heard = listeners.Heard()
    groups = {"table-1-spectators-en": "asgi__group__table-1-spectators-en", "lobby": "x"}
    heard.found_empty(["table-1-spectators-en"], now=100.0)
    assert heard.still_empty(groups, now=100.5) == set(), "not trusted unless joins are heard"

    layer = object()
    joins.listening(layer, True)
    heard.found_empty(["table-1-spectators-en"], now=time.monotonic())
    later = time.monotonic() + 1
    assert heard.still_empty(groups, now=later) == {"table-1-spectators-en"}
    assert heard.still_empty(groups, now=later + listeners.UNHEARD_SECONDS) == set()

    joins.heard("asgi__group__table-1-spectators-en")
    assert heard.still_empty(groups, now=later) == set(), "a socket joined it since"

    heard.found_empty(["table-1-spectators-en"], now=time.monotonic())
    joins.lost()
    assert heard.still_empty(groups, now=later) == set(), "joins may have been lost meanwhile"


@pytest.mark.redis
async def test_on_redis_a_group_found_empty_is_not_asked_of_again_until_a_socket_joins_it(
    monkeypatch, settings
):
    layer = pub_sub_layer(settings, os.environ["REDIS_URL"], f"joins-{uuid.uuid4().hex}")
    monkeypatch.setattr(listeners, "heard", listeners.Heard())
    monkeypatch.setattr(listeners, "joins", layers.Joins())
    monkeypatch.setattr(layers, "joins", listeners.joins)
    asked = counting_members(monkeypatch)
    group = "table-1-spectators-en"
    try:
        mine = await layer.new_channel()
        assert await asyncio.to_thread(listeners.listening, [group]) == set()
        assert await asyncio.to_thread(listeners.listening, [group]) == set()
        assert asked == [[group]], "found empty once, then trusted"

        await layer.group_add(group, mine)
        client = blocking.of(layer)
        assert client is not None
        channel = client.group_channel(group)
        deadline = asyncio.get_running_loop().time() + 5
        while channel not in listeners.joins.at:
            assert asyncio.get_running_loop().time() < deadline, "the join was never heard"
            await asyncio.sleep(0.01)
        assert await asyncio.to_thread(listeners.listening, [group]) == {group}
        assert asked == [[group], [group]]
    finally:
        await layer.flush()


def counting_members(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Each question of `members_of` from now on."""
    asked: list[list[str]] = []
    members_of = listeners.members_of

    def counted(layer: Any, groups: list[str]) -> set[str]:
        asked.append(list(groups))
        return members_of(layer, groups)

    monkeypatch.setattr(listeners, "members_of", counted)
    return asked
