"""A seat is online while its player's socket reports in, and offline once it left."""

from __future__ import annotations

from datetime import datetime

import pytest

from accounts.services import create_player
from games.live import presence
from games.models import Seat

pytestmark = pytest.mark.django_db


def seen(player) -> datetime | None:
    return Seat.objects.get(player=player).last_seen


def test_a_player_who_reports_in_is_seen_and_comes_online_once(table, anna, frozen_clock):
    assert presence.report_in(table.pk, anna.pk) == 0
    first = seen(anna)
    assert first is not None and Seat.objects.get(player=anna).online
    frozen_clock.advance(presence.REPORT_EVERY.total_seconds() - 1)
    assert presence.report_in(table.pk, anna.pk) is None
    assert seen(anna) == first, "reported again within a few seconds: nothing is written"
    frozen_clock.advance(2)
    assert presence.report_in(table.pk, anna.pk) is None
    later = seen(anna)
    assert later is not None and later > first


def test_a_player_who_left_shows_offline_and_comes_back_on_reporting_in(
    table, anna, boris, frozen_clock
):
    presence.report_in(table.pk, boris.pk)
    assert presence.leave(table.pk, boris.pk) == 1
    assert seen(boris) is None and not Seat.objects.get(player=boris).online
    assert presence.report_in(table.pk, boris.pk) == 1


def test_someone_without_a_seat_at_the_table_is_neither_seen_nor_left(table, frozen_clock):
    carl = create_player("carl", "carl-secret-pass")
    assert presence.report_in(table.pk, carl.pk) is None
    assert presence.leave(table.pk, carl.pk) is None
