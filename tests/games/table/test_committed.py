"""The writers tell what they committed through signals, and only once it committed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from games import clock
from games.models import Game
from games.table import committed, play, tables
from tests.support.tables import open_table, start_when_due


@pytest.fixture
def heard() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """What the writers' signals carried, in order, while the test runs."""
    said: list[tuple[str, dict[str, Any]]] = []
    signals = {
        "game": committed.game_committed,
        "table": committed.table_changed,
        "unseated": committed.player_unseated,
        "deadline": committed.deadline_written,
    }
    receivers = {}
    for name, signal in signals.items():

        def receiver(sender: Any, signal: Any, name: str = name, **values: Any) -> None:
            said.append((name, values))

        receivers[name] = receiver
        signal.connect(receiver, weak=False)
    yield said
    for name, signal in signals.items():
        signal.disconnect(receivers[name])


def running_game(anna, boris, frozen_clock) -> Game:
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    return start_when_due(table, frozen_clock)


@pytest.mark.django_db(transaction=True)
def test_a_move_tells_its_version_with_its_events_and_the_game_before_it(
    anna, boris, frozen_clock, heard
):
    game = running_game(anna, boris, frozen_clock)
    seat = game.state["attacker"]
    attacker = game.players.get(seat=seat).player
    assert attacker is not None
    lead = play.load(game.pk).engine.legal_actions(seat)[0]
    heard.clear()
    play.act(game.pk, attacker, lead, game.version)
    game.refresh_from_db()
    games = [values["committed"] for name, values in heard if name == "game"]
    assert len(games) == 1
    news = games[0]
    assert (news.game.pk, news.version) == (game.pk, game.version)
    assert [event["type"] for event in news.events] == ["lead"]
    assert news.before is not None and news.before.version == game.version - 1
    assert news.engine is not None and news.engine.to_dict() == game.state
    assert game.deadline_at is not None
    assert ("deadline", {"at": clock.to_seconds(game.deadline_at)}) in heard


@pytest.mark.django_db(transaction=True)
def test_a_move_rolled_back_with_its_transaction_tells_nobody(anna, boris, frozen_clock, heard):
    game = running_game(anna, boris, frozen_clock)
    seat = game.state["attacker"]
    attacker = game.players.get(seat=seat).player
    assert attacker is not None
    lead = play.load(game.pk).engine.legal_actions(seat)[0]
    heard.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        play.act(game.pk, attacker, lead, game.version)
        raise RuntimeError("the request failed after the move")
    assert heard == []
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.django_db(transaction=True)
def test_leaving_a_waiting_table_tells_its_change_and_who_left(anna, boris, heard):
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    heard.clear()
    tables.leave(table.pk, boris)
    assert ("table", {"table_id": table.pk}) in heard
