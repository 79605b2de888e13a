"""Each game has its own log; the table's earlier games are linked under it."""

from __future__ import annotations

import pytest

from games.live import broadcast, snapshots
from games.table import tables
from tests.support.tables import open_table, play_out, start_when_due

pytestmark = [pytest.mark.usefixtures("ledger_audit"), pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sent(monkeypatch):
    messages: list[broadcast.Message] = []
    monkeypatch.setattr(broadcast, "send_all", messages.extend)
    monkeypatch.setattr(broadcast.listeners, "listening", set)
    return messages


def second_game(anna, frozen_clock):
    table = open_table(anna, stake=0)
    tables.add_bot(table.pk, anna)
    first = play_out(start_when_due(table, frozen_clock), frozen_clock)
    tables.play_again(table.pk, anna)
    return table, first, start_when_due(table, frozen_clock)


def test_a_new_game_at_the_table_starts_a_new_log_that_links_the_earlier_game(
    anna, frozen_clock, sent
):
    table, first, second = second_game(anna, frozen_clock)
    dealt = [
        message["html"]["*"]
        for group, message in sent
        if group == broadcast.seat_group(table.pk, 0)
        and message.get("version") == second.version
        and message["type"] == "table.html"
    ]
    assert dealt, "the new game's first fragment reached the seat"
    assert '<ol id="log" hx-swap-oob="true"' in dealt[-1]
    assert "beforeend:#log" not in dealt[-1]
    assert dealt[-1].count("<li>") == 1, "the deal alone, nothing of the game before"
    assert f'href="/games/{first.pk}/"' in dealt[-1]


def test_a_snapshot_shows_only_the_running_games_log_and_links_the_earlier_one(anna, frozen_clock):
    table, first, second = second_game(anna, frozen_clock)
    page = snapshots.render(table.pk, 0).html
    log = page[page.index('<ol id="log"') :]
    assert log.count("<li>") <= 3
    assert f'href="/games/{first.pk}/"' in page and f'href="/games/{second.pk}/"' not in page
