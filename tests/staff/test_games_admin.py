from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts import ledger
from games.models import Game, Table
from games.table import tables
from tests.support.tables import open_table, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


@pytest.fixture
def admin_browser(admin_user) -> Client:
    """Logged in after any clock fixture listed before it, so the session is current."""
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(admin_user, backend="django.contrib.auth.backends.ModelBackend")
    return browser


def run_action(browser: Client, action: str, model: str, pk: int) -> None:
    browser.post(
        reverse(f"admin:games_{model}_changelist"),
        {"action": action, "_selected_action": [str(pk)]},
    )


def test_an_admin_stops_a_running_game_and_every_stake_returns(
    frozen_clock, admin_browser, anna, boris
):
    table = open_table(anna, stake=100)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    run_action(admin_browser, "abort_running_games", "table", table.pk)
    game.refresh_from_db()
    table.refresh_from_db()
    assert game.status == Game.Status.ABORTED and table.status == Table.Status.OPEN
    assert ledger.balance(anna) == 1000 and ledger.balance(boris) == 1000


def test_a_table_with_a_running_game_is_not_closed(frozen_clock, admin_browser, anna, boris):
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    start_when_due(table, frozen_clock)
    run_action(admin_browser, "close_tables", "table", table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_an_admin_closes_an_open_table_and_its_seats_empty(admin_browser, anna):
    table = open_table(anna, stake=10)
    run_action(admin_browser, "close_tables", "table", table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and not table.seat_set.exists()


def test_the_game_admin_shows_a_game_read_only(frozen_clock, admin_browser, anna, boris):
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    page = admin_browser.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200 and game.seed_hash in page.content.decode()
