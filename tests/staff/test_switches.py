"""What the staff have in force, as the games ask about it."""

from __future__ import annotations

import pytest

from staff import operations, switches
from tests.support.tables import open_table


@pytest.mark.django_db
def test_a_tables_hold_is_the_pause_before_its_lock_and_none_once_both_end(
    frozen_clock, sofia, anna, boris
):
    table = open_table(anna)
    other = open_table(boris, name="Other table")
    assert switches.hold(table.pk) is None
    operations.lock_table(sofia, table.pk, "cheating")
    locked = switches.hold(table.pk)
    assert locked is not None and locked.kind == "locked"
    assert switches.hold(other.pk) is None
    operations.pause_new_games(sofia, "maintenance")
    held = [switches.hold(pk) for pk in (table.pk, other.pk)]
    assert [hold.kind if hold else None for hold in held] == ["paused", "paused"]
    operations.resume_new_games(sofia, "done")
    operations.unlock_table(sofia, table.pk, "cleared")
    assert switches.hold(table.pk) is None
