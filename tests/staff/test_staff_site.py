"""Site-wide: a banner on every page and table, and a pause of new games while running
games finish."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.table import play, tables
from staff import operations, switches
from staff.models import StaffAction
from tests.staff.conftest import browser_for
from tests.support.tables import open_table, play_out, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


def test_a_banner_shows_on_every_page_until_taken_down(frozen_clock, sofia, anna):
    table = open_table(anna, stake=0)
    notice = operations.post_site_notice(sofia, "Restart in 10 minutes")
    visitor = browser_for(None)
    for url in (reverse("lobby"), table.get_absolute_url(), reverse("rules")):
        assert "Restart in 10 minutes" in visitor.get(url).content.decode()
    operations.end_site_notice(sofia, notice.pk, "restarted")
    assert "Restart in 10 minutes" not in visitor.get(reverse("lobby")).content.decode()
    assert list(StaffAction.objects.values_list("kind", flat=True)) == [
        "end_site_notice",
        "site_notice",
    ]


def test_an_empty_banner_is_refused(sofia):
    with pytest.raises(operations.StaffError, match="Write the notice"):
        operations.post_site_notice(sofia, "   ")
    assert switches.banners() == []


def test_a_pause_lets_running_games_finish_and_starts_no_new_one(
    frozen_clock, sofia, anna, boris, clara
):
    running = open_table(anna, stake=10)
    tables.join(running.pk, boris)
    game = start_when_due(running, frozen_clock)
    counting = open_table(clara, stake=0)
    tables.add_bot(counting.pk, clara)
    counting.refresh_from_db()
    assert counting.starts_at is not None
    operations.pause_new_games(sofia, "deploying")
    counting.refresh_from_db()
    assert counting.starts_at is None
    frozen_clock.advance(5)
    assert play.start(counting.pk) is None
    assert play_out(game, frozen_clock).status == Game.Status.FINISHED
    tables.play_again(running.pk, anna)
    tables.play_again(running.pk, boris)
    running.refresh_from_db()
    assert running.starts_at is None
    page = browser_for(anna).get(running.get_absolute_url()).content.decode()
    assert "New games are paused" in page
    with pytest.raises(operations.StaffError, match="already paused"):
        operations.pause_new_games(sofia, "twice")
    operations.resume_new_games(sofia, "deployed")
    running.refresh_from_db()
    counting.refresh_from_db()
    assert running.starts_at is not None and counting.starts_at is not None
    assert start_when_due(counting, frozen_clock).status == Game.Status.RUNNING
    with pytest.raises(operations.StaffError, match="not paused"):
        operations.resume_new_games(sofia, "again")
