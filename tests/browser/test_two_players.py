from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import Player, game_state, sign_in, wait_for_game

pytestmark = pytest.mark.browser
GAME_SECONDS = 180


def open_table(page: Page, name: str, seats: int, bots: bool) -> str:
    page.goto("/tables/new/")
    page.fill("input[name=name]", name)
    page.fill("input[name=stake]", "10")
    page.select_option("select[name=seats]", str(seats))
    page.fill("input[name=move_time]", "15")
    page.set_checked("input[name=bots_allowed]", bots)
    page.click("main form button[type=submit]")
    page.wait_for_url("**/tables/*/")
    return page.url


def sit_down(page: Page, table_url: str) -> None:
    table_id = table_url.rstrip("/").rsplit("/", 1)[1]
    row = page.locator(f'.table-row[data-table-id="{table_id}"]')
    expect(row).to_be_visible()
    row.locator('[data-action="join"]').click()
    page.wait_for_url(table_url)
    page.click('#game [data-action="join"]')


def picture(page: Page) -> dict[str, object]:
    return page.evaluate(
        """() => { const g = document.getElementById('game');
            if (g.dataset.phase === 'waiting') return {version: 'waiting'};
            const seats = {};
            document.querySelectorAll('#game .seat').forEach(
                s => { seats[s.dataset.seat] = Number(s.dataset.cards); });
            seats[g.dataset.seat] = document.querySelectorAll('#hand .hand-card').length;
            return {
                version: g.dataset.version, seats: seats,
                pairs: [...document.querySelectorAll('#table .pair')].map(
                    p => [p.dataset.attack, p.dataset.defence || null]),
                trump: document.getElementById('trump').dataset.card,
            }; }"""
    )


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


def test_two_players_play_a_game_to_the_end_with_a_transfer_and_a_take(
    chromium: Browser, server: str, screenshots: Path
) -> None:
    anna_page = sign_in(chromium, server, "anna", DESKTOP)
    boris_page = sign_in(chromium, server, "boris", PHONE)
    table_url = open_table(anna_page, "Anna and Boris", seats=2, bots=False)
    sit_down(boris_page, table_url)
    wait_for_game(anna_page)
    wait_for_game(boris_page)
    anna = Player(anna_page, wants={"transfer", "take"})
    boris = Player(boris_page, wants={"transfer", "take"})
    saw_closing = False
    deadline = time.monotonic() + GAME_SECONDS
    while game_state(anna_page)["phase"] != "waiting":
        assert time.monotonic() < deadline, "the game did not end in time"
        same_table(anna_page, boris_page)
        for page in (anna_page, boris_page):
            saw_closing = countdown_follows_r10(page) or saw_closing
        if not (anna.act() or boris.act()):
            time.sleep(0.2)
    made = anna.done + boris.done
    assert "transfer" in made and "take" in made
    assert saw_closing
    for page in (anna_page, boris_page):
        expect(page.locator("#game .results")).to_be_visible()
        expect(page.locator('[data-action="play-again"]')).to_be_enabled()
        expect(page.locator("#game .results a[href^='/games/']")).to_be_visible()
    anna_page.screenshot(path=screenshots / "result-desktop.png", full_page=True)
    boris_page.screenshot(path=screenshots / "result-phone.png", full_page=True)
