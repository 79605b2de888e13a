"""Only the staff reach the staff pages: a visitor gets the login page, a player 403, and
neither changes anything."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from accounts import ledger
from games.models import Table
from staff.models import NewGamesPause, SiteNotice, StaffAction
from tests.staff.conftest import browser_for
from tests.support.tables import open_table

pytestmark = pytest.mark.usefixtures("ledger_audit")

PAGES = ["staff_tables", "staff_players", "staff_audit", "staff_signals"]
TABLE_POSTS = [
    "staff_stop",
    "staff_close",
    "staff_lock",
    "staff_unlock",
    "staff_kick",
    "staff_table_notice",
]
SITE_POSTS = ["staff_site_notice", "staff_pause", "staff_resume"]
PLAYER_POSTS = ["staff_deactivate", "staff_reactivate", "staff_adjust"]
FIELDS = {
    "reason": "because",
    "text": "hello",
    "position": "0",
    "amount": "100",
    "key": str(uuid.uuid4()),
}


@pytest.fixture
def table(frozen_clock, anna) -> Table:
    return open_table(anna, stake=10)


def every_url(table: Table, player_id: int) -> list[tuple[str, str]]:
    urls = [("get", reverse(name)) for name in PAGES]
    urls.append(("get", reverse("staff_player", args=[player_id])))
    urls += [("post", reverse(name, args=[table.pk])) for name in TABLE_POSTS]
    urls += [("post", reverse(name)) for name in SITE_POSTS]
    urls += [("post", reverse(name, args=[player_id])) for name in PLAYER_POSTS]
    return urls


def nothing_changed(table: Table, anna) -> bool:
    table.refresh_from_db()
    anna.refresh_from_db()
    return (
        not StaffAction.objects.exists()
        and not SiteNotice.objects.exists()
        and not NewGamesPause.objects.exists()
        and table.status == Table.Status.OPEN
        and table.seat_set.filter(player=anna).exists()
        and anna.is_active
        and ledger.balance(anna) == 1000
    )


def test_a_visitor_is_sent_to_the_login_page_from_every_staff_url(table, anna):
    visitor = browser_for(None)
    for method, url in every_url(table, anna.pk):
        answer = getattr(visitor, method)(url, FIELDS)
        assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/"), url
    assert nothing_changed(table, anna)


def test_a_player_gets_403_from_every_staff_url(table, anna, boris):
    player = browser_for(boris)
    for method, url in every_url(table, anna.pk):
        assert getattr(player, method)(url, FIELDS).status_code == 403, url
    assert nothing_changed(table, anna)


def test_the_staff_reach_every_staff_page(table, anna, staff_browser):
    for method, url in every_url(table, anna.pk):
        if method == "get":
            assert staff_browser.get(url).status_code == 200, url


def test_the_header_links_the_control_room_for_the_staff_only(staff_browser, anna):
    assert reverse("staff_tables") in staff_browser.get(reverse("lobby")).content.decode()
    assert reverse("staff_tables") not in browser_for(anna).get(reverse("lobby")).content.decode()


def test_a_staff_post_is_refused_on_get(table, staff_browser):
    assert staff_browser.get(reverse("staff_stop", args=[table.pk])).status_code == 405


STAFF_POSTS = [
    ("staff_table_notice", "table", "table_notice"),
    ("staff_lock", "table", "lock_table"),
    ("staff_unlock", "table", "unlock_table"),
    ("staff_kick", "table", "kick"),
    ("staff_close", "table", "close_table"),
    ("staff_site_notice", None, "site_notice"),
    ("staff_pause", None, "pause"),
    ("staff_resume", None, "resume"),
    ("staff_deactivate", "player", "deactivate"),
    ("staff_reactivate", "player", "reactivate"),
    ("staff_adjust", "player", "adjust_chips"),
]


def test_the_staff_do_each_action_from_its_form_and_each_is_recorded(
    table, anna, boris, staff_browser
):
    for name, target, kind in STAFF_POSTS:
        args = {"table": [table.pk], "player": [boris.pk], None: []}[target]
        page = staff_browser.post(reverse(name, args=args), FIELDS, follow=True)
        assert page.status_code == 200
        assert StaffAction.objects.filter(kind=kind).count() == 1, name
    assert ledger.balance(boris) == 1100
