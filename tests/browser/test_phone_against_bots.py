from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, WHOLE_GAME
from tests.browser.play import Player, game_state, open_table, picture, sign_in, wait_for_game

pytestmark = pytest.mark.browser
GAME_SECONDS = 300


def reload_shows_the_same_game(page: Page) -> None:
    """A reload at any moment restores exactly what was shown (retrying if a bot moved)."""
    for _ in range(5):
        before = picture(page)
        hand = page.locator("#hand .hand-card").evaluate_all("cs => cs.map(c => c.dataset.card)")
        page.reload()
        wait_for_game(page)
        after = picture(page)
        if after["version"] == before["version"]:
            assert after == before
            assert hand == page.locator("#hand .hand-card").evaluate_all(
                "cs => cs.map(c => c.dataset.card)"
            )
            return
    pytest.fail("the game kept changing during every reload")


@WHOLE_GAME
def test_a_player_on_a_phone_finishes_a_four_player_game_against_three_bots(
    chromium: Browser, server: str, screenshots: Path
) -> None:
    page = sign_in(chromium, server, "carla", PHONE)
    open_table(page, "Carla and the bots", seats=4, bots=True)
    for taken in (2, 3, 4):
        page.locator('#game [data-action="add-bot"]').first.click()
        expect(page.locator("#game .seat.taken")).to_have_count(taken)
    wait_for_game(page)
    expect(page.locator("#game .seat")).to_have_count(3)
    expect(page.locator("#game .seat .mark.bot")).to_have_count(3)
    first_card = page.locator("#hand .hand-card").first
    expect(first_card).to_have_attribute("aria-label", re.compile(r"\S \S"))
    expect(page.locator("#trump")).to_have_attribute("data-card", re.compile(r"^[6-9TJQKA][SCDH]$"))
    carla = Player(page, keyboard=True)
    reloaded = shot = saw_thinking = False
    deadline = time.monotonic() + GAME_SECONDS
    while game_state(page)["phase"] != "waiting":
        assert time.monotonic() < deadline, "the game did not end in time"
        saw_thinking = saw_thinking or page.locator("#game .seat .thinking").count() > 0
        if not shot and page.locator("#table .pair").count() >= 2:
            page.screenshot(path=screenshots / "table-phone.png", full_page=True)
            shot = True
        if not reloaded and page.locator("#table .pair").count() >= 1:
            reload_shows_the_same_game(page)
            reloaded = True
        if not carla.act():
            time.sleep(0.2)
    assert reloaded and saw_thinking
    expect(page.locator("#game .results .receipt tbody tr")).to_have_count(4)
    page.screenshot(path=screenshots / "result-phone-four-players.png", full_page=True)
