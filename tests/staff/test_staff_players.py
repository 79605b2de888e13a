"""The staff and players: deactivate and reactivate, adjust chips through the ledger, and
read a player's games, ledger and sessions."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from accounts import ledger
from accounts.models import Transfer
from games.models import Seat
from games.table import tables
from staff import operations
from staff.models import StaffAction
from tests.staff.conftest import browser_for
from tests.support.tables import open_table, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


def test_a_deactivated_player_is_logged_out_refused_at_login_and_autopiloted(
    frozen_clock, sofia, anna, boris
):
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    start_when_due(table, frozen_clock)
    logged_in = browser_for(boris)
    assert Session.objects.count() == 1
    operations.deactivate(sofia, boris, "chip farming")
    boris.refresh_from_db()
    assert not boris.is_active and Session.objects.count() == 0
    assert logged_in.get(reverse("profile")).status_code == 302
    seat = Seat.objects.get(table=table, position=1)
    assert seat.player is None and seat.autopiloted
    page = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        reverse("login"), {"username": "boris", "password": "boris-plays-durak"}
    )
    assert "The staff deactivated this account" in page.content.decode()
    action = StaffAction.objects.get()
    assert (action.kind, action.player, action.reason, action.details["sessions_ended"]) == (
        "deactivate",
        boris,
        "chip farming",
        1,
    )


def test_a_wrong_password_for_a_deactivated_player_reveals_nothing(sofia, boris):
    operations.deactivate(sofia, boris, "chip farming")
    page = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        reverse("login"), {"username": "boris", "password": "guess"}
    )
    assert "deactivated" not in page.content.decode()


def test_a_reactivated_player_logs_in_again(sofia, boris):
    operations.deactivate(sofia, boris, "mistake")
    operations.reactivate(sofia, boris, "it was a mistake")
    answer = browser_for(None).post(
        reverse("login"), {"username": "boris", "password": "boris-plays-durak"}
    )
    assert answer.status_code == 302
    with pytest.raises(operations.StaffError, match="is active"):
        operations.reactivate(sofia, boris, "again")


def test_staff_cannot_deactivate_themselves(sofia):
    with pytest.raises(operations.StaffError, match="yourself"):
        operations.deactivate(sofia, sofia, "tired")


def test_chips_are_adjusted_with_a_reason_through_the_ledger_once_per_key(
    staff_browser, sofia, anna
):
    key = uuid.uuid4()
    form = {"amount": "250", "reason": "lost to a server crash", "key": str(key)}
    url = reverse("staff_adjust", args=[anna.pk])
    staff_browser.post(url, form)
    staff_browser.post(url, form)
    assert ledger.balance(anna) == 1250
    transfer = Transfer.objects.get(kind="adjustment")
    assert (transfer.created_by, transfer.reason) == (sofia, "lost to a server crash")
    action = StaffAction.objects.get()
    assert (action.kind, action.details["amount"], action.details["transfer"]) == (
        "adjust_chips",
        250,
        transfer.pk,
    )


def test_an_adjustment_without_a_reason_or_below_zero_changes_nothing(staff_browser, anna):
    url = reverse("staff_adjust", args=[anna.pk])
    page = staff_browser.post(
        url, {"amount": "5", "reason": "", "key": str(uuid.uuid4())}, follow=True
    )
    assert "Reason" in page.content.decode()
    page = staff_browser.post(
        url, {"amount": "-5000", "reason": "take back", "key": str(uuid.uuid4())}, follow=True
    )
    assert "has 1000 chips but 5000 are needed" in page.content.decode()
    assert ledger.balance(anna) == 1000
    assert not StaffAction.objects.exists()


def test_the_player_page_shows_games_ledger_sessions_and_staff_actions(
    frozen_clock, staff_browser, sofia, anna, boris
):
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    operations.stop_game(sofia, table.pk, "testing the page")
    browser_for(None).post(reverse("login"), {"username": "anna", "password": "anna-plays-durak"})
    html = staff_browser.get(reverse("staff_player", args=[anna.pk])).content.decode()
    assert f'data-game-id="{game.pk}"' in html
    assert "Refund of game" in html and "Welcome grant" in html
    assert "1 session open now." in html and "127.0.0.1" in html
    assert "testing the page" not in html
    operations.adjust_chips(sofia, anna, 5, "goodwill", key="k1")
    html = staff_browser.get(reverse("staff_player", args=[anna.pk])).content.decode()
    assert "goodwill" in html


def test_players_are_found_by_name(staff_browser, anna, boris):
    html = staff_browser.get(reverse("staff_players"), {"q": "ann"}).content.decode()
    assert f'data-player-id="{anna.pk}"' in html and f'data-player-id="{boris.pk}"' not in html


def test_deactivating_says_what_happens_to_a_running_game_and_its_payout(sofia, boris):
    page = browser_for(sofia).post(
        reverse("staff_deactivate", args=[boris.pk]), {"reason": "chip farming"}, follow=True
    )
    said = page.content.decode()
    assert "played out by the autopilot, and the house holds its payout" in said
