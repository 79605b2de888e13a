from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, WHOLE_GAME
from tests.browser.play import (
    Player,
    game_state,
    open_table,
    picture,
    sign_in,
    sit_down,
    wait_for_game,
)

pytestmark = pytest.mark.browser
STAKE = 10
GAME_SECONDS = 300


def same_table(a: Page, b: Page) -> None:
    """Both pages show the same table, and each one's count of the other's hand is right."""
    for _ in range(30):
        left, right = picture(a), picture(b)
        if left == right or "waiting" in (left["version"], right["version"]):
            return
        time.sleep(0.1)
    assert picture(a) == picture(b)


def countdown_follows_r10(page: Page) -> bool:
    """The bar shows exactly while the round is closing (R10); says whether it shows now."""
    seen = page.evaluate(
        """() => { const bar = document.getElementById('countdown');
            return {phase: document.getElementById('game').dataset.phase,
                    shown: !!bar && !bar.hidden && bar.getBoundingClientRect().height > 0,
                    deadline: bar ? bar.dataset.deadline : ''}; }"""
    )
    if seen["phase"] in ("lead", "defend", "closing"):
        assert seen["shown"] == (seen["phase"] == "closing"), seen
    if seen["shown"]:
        assert seen["deadline"]
    return bool(seen["shown"])


def refused_move_shows_its_reason(page: Page) -> None:
    page.evaluate(
        """() => { const form = document.getElementById('move-form');
            form.elements.action.value = 'defend'; form.elements.card.value = 'AS';
            form.elements.target.value = '6S';
            form.elements.version.value = document.getElementById('game').dataset.version;
            htmx.trigger(form, 'submit'); }"""
    )
    expect(page.locator("#notice.error")).not_to_be_empty()


@WHOLE_GAME
def test_two_players_finish_a_game_with_a_transfer_and_a_take_and_the_countdown_follows_r10(
    chromium: Browser, server: str, screenshots: Path
) -> None:
    anna_page = sign_in(chromium, server, "anna", DESKTOP)
    boris_page = sign_in(chromium, server, "boris", PHONE)
    table_url = open_table(anna_page, "Anna and Boris", seats=2, bots=False)
    sit_down(boris_page, table_url)
    wait_for_game(anna_page)
    wait_for_game(boris_page)
    refused_move_shows_its_reason(anna_page)
    boris_tab = boris_page.context.new_page()
    boris_tab.goto(table_url)
    wait_for_game(boris_tab)
    anna = Player(anna_page, wants={"transfer", "take"})
    wants = {"transfer", "take"}
    borises = [Player(boris_page, wants=wants), Player(boris_tab, wants=wants)]
    turn = 0
    saw_closing = False
    shot = False
    deadline = time.monotonic() + GAME_SECONDS
    while game_state(anna_page)["phase"] != "waiting":
        assert time.monotonic() < deadline, "the game did not end in time"
        same_table(anna_page, boris_page)
        same_table(boris_page, boris_tab)
        for page in (anna_page, boris_page):
            saw_closing = countdown_follows_r10(page) or saw_closing
        if not shot and anna_page.locator("#table .pair").count() >= 2:
            anna_page.screenshot(path=screenshots / "table-desktop.png", full_page=True)
            boris_page.screenshot(path=screenshots / "table-phone-two-players.png", full_page=True)
            shot = True
        turn += 1
        boris = borises[turn % 2]
        if not (anna.act() or boris.act()):
            time.sleep(0.2)
    made = anna.done + borises[0].done + borises[1].done
    assert "transfer" in made and "take" in made
    assert borises[0].done and borises[1].done, "both of Boris's tabs made moves"
    headlines = anna.headlines + borises[0].headlines + borises[1].headlines
    assert any(name in line for line in headlines for name in ("anna", "boris")), headlines
    assert saw_closing
    for page in (anna_page, boris_page):
        expect(page.locator("#game .results")).to_be_visible()
        expect(page.locator('[data-action="play-again"]')).to_be_enabled()
        expect(page.locator("#game .results a[href^='/games/']")).to_be_visible()
    payout = anna_page.locator(".receipt tbody tr", has_text="anna").locator(".payout")
    expect(anna_page.locator(".site-header .balance")).to_contain_text(
        str(1000 - STAKE + int(payout.inner_text()))
    )
    anna_page.screenshot(path=screenshots / "result-desktop.png", full_page=True)
    anna_page.click('[data-action="play-again"]')
    expect(anna_page.locator('[data-action="play-again"]')).to_have_count(0)
    boris_page.screenshot(path=screenshots / "result-phone.png", full_page=True)
