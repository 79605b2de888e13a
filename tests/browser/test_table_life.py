"""A table's life as a player meets it: error pages, one seat at a time, leaving a game,
quick play, and names in the reader's language."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import Player, console_errors, open_table, wait_for_game

pytestmark = pytest.mark.browser
SIZES = [("desktop", DESKTOP), ("phone", PHONE)]


def table_id(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


def only_expected(errors: list[str], *expected: str) -> list[str]:
    return [e for e in errors if not any(text in e for text in expected)]


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_a_private_table_without_its_invite_says_so_in_the_sites_layout(
    people, server: str, size: str, viewport: dict
) -> None:
    host, guest = ("pavel", "polina") if size == "desktop" else ("roman", "stepan")
    host_page = people(host, viewport)
    host_page.goto("/tables/new/")
    host_page.fill("input[name=name]", f"Private {size}")
    host_page.set_checked("input[name=private]", True)
    host_page.click("main form button[type=submit]")
    host_page.wait_for_url("**/tables/*/")
    page = people(guest, viewport, locale="en-GB")
    errors = console_errors(page)
    response = page.goto(host_page.url)
    assert response is not None and response.status == 403
    expect(page.locator(".site-header .brand")).to_be_visible()
    expect(page.locator(".error-message")).to_have_text(
        "This table is private: ask its players for the invite link."
    )
    page.click('[data-action="back-to-lobby"]')
    page.wait_for_url(server + "/")
    assert only_expected(errors, "403") == []
    host_page.click('#game [data-action="leave"]')
    host_page.wait_for_url(server + "/")


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_sitting_elsewhere_links_the_players_table_and_lets_them_leave_it_between_games(
    people, server: str, size: str, viewport: dict
) -> None:
    host, player = ("taras", "uliana") if size == "desktop" else ("rita", "zakhar")
    host_page = people(host, viewport)
    other_url = open_table(host_page, f"Other table {size}", seats=3, bots=False)
    page = people(player, viewport, locale="en-GB")
    errors = console_errors(page)
    mine = open_table(page, f"My table {size}", seats=3, bots=False)
    page.goto("/")
    page.locator(f'.table-row[data-table-id="{table_id(other_url)}"] [data-action="join"]').click()
    notice = page.locator("#notice")
    expect(notice).to_contain_text(f"You already sit at the table “My table {size}”")
    expect(notice.locator('[data-action="open-my-table"]')).to_have_attribute(
        "href", re.compile(f"/tables/{table_id(mine)}/$")
    )
    with page.expect_navigation(url=server + "/"):
        notice.locator('[data-action="leave-my-table"]').click()
    page.locator(f'.table-row[data-table-id="{table_id(other_url)}"] [data-action="join"]').click()
    page.wait_for_url(other_url)
    expect(page.locator("#game")).to_have_attribute("data-seat", "1")
    page.click('#game [data-action="leave"]')
    page.wait_for_url(server + "/")
    assert errors == []
    host_page.click('#game [data-action="leave"]')
    host_page.wait_for_url(server + "/")


@pytest.mark.parametrize(
    ("size", "viewport", "name"), [("desktop", DESKTOP, "artem"), ("phone", PHONE, "bella")]
)
def test_leaving_a_game_asks_first_and_the_player_can_come_back_and_take_over(
    people, server: str, size: str, viewport: dict, name: str
) -> None:
    page = people(name, viewport, locale="en-GB")
    errors = console_errors(page)
    url = open_table(page, f"Leaving {size}", seats=2, bots=True)
    page.locator('#game [data-action="add-bot"]').first.click()
    wait_for_game(page)
    expect(page.locator("#game .seat .seat-name").first).to_contain_text("Bot 2")
    dialog = page.locator("#leave-dialog")
    page.click('#game [data-action="leave-game"]')
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("The autopilot plays your seat to the end of this game")
    expect(dialog).to_contain_text("Your stake stays in the bank")
    expect(dialog).to_contain_text("come back to this table")
    dialog.locator('[data-action="stay"]').click()
    expect(dialog).to_be_hidden()
    page.click('#game [data-action="leave-game"]')
    dialog.locator('[data-action="confirm-leave"]').click()
    page.wait_for_url(server + "/")
    page.goto(url)
    wait_for_game(page)
    expect(page.locator("#game .me .mark.away")).to_contain_text("you left")
    player = Player(page)
    for _ in range(100):
        if page.locator("#game .me .mark.away").count() == 0 or not game_running(page):
            break
        player.act()
        page.wait_for_timeout(200)
    assert page.locator("#game .me .mark.away").count() == 0, "the player took the seat over"
    assert errors == []


def game_running(page: Page) -> bool:
    return page.get_attribute("#game", "data-phase") not in ("waiting", "over")


@pytest.mark.parametrize(
    ("size", "viewport", "names"),
    [("desktop", DESKTOP, ("chen", "daria")), ("phone", PHONE, ("egor", "faina"))],
)
def test_quick_play_joins_the_table_where_someone_waits_at_that_stake(
    people, server: str, size: str, viewport: dict, names: tuple[str, str]
) -> None:
    waiting = people(names[0], viewport)
    waiting.goto("/tables/new/")
    waiting.fill("input[name=name]", f"Waiting {size}")
    waiting.fill("input[name=stake]", "70" if size == "desktop" else "80")
    waiting.select_option("select[name=seats]", "3")
    waiting.click("main form button[type=submit]")
    waiting.wait_for_url("**/tables/*/")
    page = people(names[1], viewport)
    errors = console_errors(page)
    page.fill("#id_stake", "70" if size == "desktop" else "80")
    page.click('[data-action="quick-play"]')
    page.wait_for_url(waiting.url)
    expect(page.locator("#game .seat.taken")).to_have_count(2)
    expect(waiting.locator("#game .seat.taken")).to_have_count(2)
    assert errors == []
    for someone in (page, waiting):
        someone.click('#game [data-action="leave"]')
        someone.wait_for_url(server + "/")
