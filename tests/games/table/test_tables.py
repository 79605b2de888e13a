from __future__ import annotations

import pytest
from django.db import transaction

from accounts import ledger
from games import errors
from games.bots import LEVELS
from games.live import broadcast
from games.models import BotLevel, Game, Seat, Table
from games.picture import scene
from games.table import play, tables
from tests.support.tables import open_table, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


def test_the_game_starts_three_seconds_after_the_last_seat_is_filled(anna, boris, frozen_clock):
    table = open_table(anna, stake=100)
    tables.join(table.pk, boris)
    frozen_clock.advance(2.9)
    assert play.start(table.pk) is None
    game = start_when_due(table, frozen_clock)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert game.bank == 200 and ledger.balance(anna) == 900 and ledger.balance(boris) == 900
    assert len(game.seed_hash) == 64 and game.events.earliest("seq").type == "deal"


def test_a_player_who_cannot_pay_at_the_start_is_unseated_and_told_why(anna, boris, frozen_clock):
    table = open_table(anna, stake=100)
    tables.join(table.pk, boris)
    ledger.adjust(boris, -950, "test: spent elsewhere", by=anna)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    assert play.start(table.pk) is None
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert list(Seat.objects.filter(table=table).values_list("player__username", flat=True)) == [
        "anna"
    ]
    assert ledger.balance(anna) == 1000 and ledger.balance(boris) == 50
    assert not Game.objects.exists()


def test_joining_without_enough_chips_is_refused(anna, boris):
    table = open_table(anna, stake=500)
    ledger.adjust(boris, -600, "test: spent elsewhere", by=anna)
    with pytest.raises(errors.GameError, match="500 chips and you have 400"):
        tables.join(table.pk, boris)
    assert not Seat.objects.filter(player=boris).exists()


def test_a_table_whose_stake_the_creator_cannot_pay_is_not_created(anna):
    with pytest.raises(errors.GameError):
        open_table(anna, stake=5000)
    assert not Table.objects.exists()


def test_a_player_sits_at_one_table_at_a_time(anna, boris):
    first = open_table(anna)
    second = open_table(boris)
    with pytest.raises(errors.GameError, match="already sit at this table"):
        tables.join(first.pk, anna)
    with pytest.raises(errors.GameError, match="leave it first"):
        tables.join(second.pk, anna)


def test_a_private_table_needs_its_invite_code(anna, boris):
    table = open_table(anna, private=True)
    with pytest.raises(errors.GameError, match="private"):
        tables.join(table.pk, boris, invite_code="wrong")
    tables.join(table.pk, boris, invite_code=table.invite_code)


def test_only_the_host_adds_bots_and_only_where_bots_are_allowed(anna, boris, clara):
    table = open_table(anna, seats=3)
    tables.join(table.pk, boris)
    with pytest.raises(errors.GameError, match="host"):
        tables.add_bot(table.pk, boris)
    tables.add_bot(table.pk, anna)
    no_bots = open_table(clara, bots_allowed=False)
    with pytest.raises(errors.GameError, match="not allowed"):
        tables.add_bot(no_bots.pk, clara)


def test_a_bot_is_of_one_of_the_bots_levels_and_any_other_level_is_refused(anna):
    assert BotLevel.values == list(LEVELS)
    table = open_table(anna, seats=4)
    assert tables.add_bot(table.pk, anna, BotLevel.STRONG).bot_level == "strong"
    with pytest.raises(errors.GameError, match="Unknown bot level"):
        tables.add_bot(table.pk, anna, "medium")
    assert Seat.objects.filter(table=table).count() == 2
    page = scene.render(scene.of_table(table.pk), scene.Audience(0, "en"))
    assert '<option value="easy">easy</option><option value="strong">strong</option>' in page
    assert "bot · strong" in page


@pytest.fixture
def sent(monkeypatch):
    """Every batch of messages that leaves for the channel layer, and whether a transaction
    was still open when it left."""
    batches: list[tuple[bool, list[broadcast.Message]]] = []

    def record(messages: list[broadcast.Message]) -> None:
        batches.append((transaction.get_connection().in_atomic_block, list(messages)))

    monkeypatch.setattr(broadcast, "send_all", record)
    monkeypatch.setattr(broadcast.listeners, "listening", set)
    return batches


@pytest.mark.django_db(transaction=True)
def test_no_fragment_leaves_before_its_commit(anna, boris, frozen_clock, sent):
    table = open_table(anna, seats=3)
    tables.join(table.pk, boris)
    tables.add_bot(table.pk, anna)
    game = start_when_due(table, frozen_clock)
    play.tick(game.pk, frozen_clock.advance(40))
    tables.leave(table.pk, boris)
    play.abort(game.pk, "maintenance")
    tables.play_again(table.pk, anna)
    kinds = {message["type"] for _open, batch in sent for _group, message in batch}
    assert {"lobby.html", "table.seating", "table.html"} <= kinds
    assert [open_ for open_, _batch in sent if open_] == []


@pytest.mark.django_db(transaction=True)
def test_a_refused_change_sends_nothing(anna, boris, sent):
    table = open_table(anna, stake=500)
    sent.clear()
    ledger.adjust(boris, -600, "test: spent elsewhere", by=anna)
    with pytest.raises(errors.GameError):
        tables.join(table.pk, boris)
    with pytest.raises(errors.GameError):
        tables.add_bot(table.pk, boris)
    assert sent == []
