"""What a phone leaves of the screen and what a thumb can hit: a one-row header on every page,
the chat button clear of the player's hand, 44 px targets on the profile and in the history."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import FloatRect, Page, ViewportSize, expect

from tests.browser.conftest import PHONE, played_game
from tests.browser.play import open_table, wait_for_game

pytestmark = pytest.mark.browser
PLAYER = "vlad"
HEADER_MOST = 60
TOUCH = 44
SMALL_PHONE: ViewportSize = {"width": 375, "height": 667}


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def overlap(a: FloatRect, b: FloatRect) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_on_a_phone_the_header_is_one_row_and_every_control_in_it_can_be_reached(
    people, screenshots: Path
) -> None:
    page = people(PLAYER, PHONE, locale="ru-RU")
    for path in ("/", "/history/", "/leaderboard/", "/accounts/profile/"):
        page.goto(path)
        assert box(page, "header.site-header")["height"] <= HEADER_MOST, path
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    page.screenshot(path=str(screenshots / "header-phone-ru.png"))
    controls = page.locator("header.site-header a, header.site-header button, #language")
    for index in range(controls.count()):
        control = controls.nth(index)
        control.scroll_into_view_if_needed()
        found = control.bounding_box()
        assert found is not None and found["x"] >= 0
        assert found["x"] + found["width"] <= PHONE["width"] + 1


def test_on_a_phone_the_chat_button_leaves_the_players_hand_clear(
    people, screenshots: Path
) -> None:
    page = people(PLAYER, SMALL_PHONE, locale="ru-RU")
    open_table(page, "Vlad's phone", seats=4, bots=True)
    for taken in (2, 3, 4):
        page.locator('#game [data-action="add-bot"]').first.click()
        expect(page.locator("#game .seat.taken")).to_have_count(taken)
    wait_for_game(page)
    expect(page.locator(".chat-toggle")).to_be_visible()
    bottom = page.evaluate("() => document.documentElement.scrollHeight - window.innerHeight")
    for scroll in range(0, bottom + 100, 100):
        page.evaluate(f"() => window.scrollTo(0, {scroll})")
        if page.locator(".chat-toggle").is_visible():
            assert not overlap(box(page, ".chat-toggle"), box(page, ".me")), scroll
    page.screenshot(path=str(screenshots / "chat-pill-phone-ru.png"))


def test_on_a_phone_the_profile_checkbox_and_the_history_links_are_big_enough_to_tap(
    people, site_env: dict[str, str], screenshots: Path
) -> None:
    played_game(site_env, "vika", players=2)
    page = people("vika", PHONE, locale="ru-RU")
    page.goto("/accounts/profile/")
    tick, label = box(page, "input[type=checkbox]"), box(page, "label:has(+ input[type=checkbox])")
    assert tick["width"] >= TOUCH / 2 and tick["height"] >= TOUCH / 2
    assert label["height"] >= TOUCH and label["x"] + label["width"] >= tick["x"] - 16
    before = page.is_checked("input[type=checkbox]")
    page.click("label:has(+ input[type=checkbox])")
    assert page.is_checked("input[type=checkbox]") is not before
    page.goto("/history/")
    expect(page.locator(".history-row a").first).to_be_visible()
    for link in page.locator(".history-row a").all():
        found = link.bounding_box()
        assert found is not None and found["height"] >= TOUCH and found["width"] >= TOUCH
    page.screenshot(path=str(screenshots / "history-phone-ru.png"), full_page=True)
