"""A page kept up to date by the pieces that changed shows what a fresh page shows."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP
from tests.browser.play import Player, game_state, open_table, wait_for_game

pytestmark = pytest.mark.browser
GAME_SECONDS = 240
COMPARISONS = 6

SECTION = """g => {
    const copy = g.cloneNode(true);
    for (const el of [copy, ...copy.querySelectorAll('*')]) {
        for (const name of ['style', 'data-now', 'data-base', 'hx-swap-oob']) {
            el.removeAttribute(name);
        }
        el.classList.remove('moving', 'choosing', 'sliding', 'htmx-settling', 'htmx-added',
                            'htmx-swapping', 'htmx-request');
        if (el.getAttribute('class') === '') el.removeAttribute('class');
    }
    copy.querySelectorAll('.seconds').forEach(el => { el.textContent = ''; });
    copy.querySelectorAll('.presence').forEach(el => el.remove());
    return copy.outerHTML;
}"""
"""The section as markup, without what differs between two pages that show the same: the
clock, animations in progress, the swap instructions htmx removes, and who is online (that
travels on its own, and this test's second page of the same player changes it)."""


def section(page: Page) -> tuple[str, str]:
    page.wait_for_function("() => !document.querySelector('#game .htmx-settling')")
    return game_state(page)["version"], page.eval_on_selector("#game", SECTION)


def same_version_seen_by_both(kept: Page, fresh: Page) -> tuple[str, str] | None:
    """Both sections when the two pages show one version and neither moved meanwhile."""
    for _ in range(10):
        version, markup = section(kept)
        fresh_version, fresh_markup = section(fresh)
        if version == fresh_version and section(kept)[0] == version:
            return markup, fresh_markup
        time.sleep(0.1)
    return None


def test_a_page_kept_up_by_the_pieces_that_changed_equals_a_fresh_snapshot(
    people, server: str
) -> None:
    page = people("gleb", DESKTOP, locale="en-GB")
    table_url = open_table(page, "Gleb checks the pieces", seats=3, bots=True)
    for taken in (2, 3):
        page.locator('#game [data-action="add-bot"]').first.click()
        expect(page.locator("#game .seat.taken")).to_have_count(taken)
    wait_for_game(page)
    gleb = Player(page)
    page.evaluate(
        """() => { window.piecesReceived = 0;
            document.getElementById('table-socket').addEventListener('htmx:wsBeforeMessage',
                e => { if (e.detail.message.includes('data-base="')) window.piecesReceived++; });
        }"""
    )
    compared = 0
    deadline = time.monotonic() + GAME_SECONDS
    while compared < COMPARISONS and game_state(page)["phase"] != "waiting":
        assert time.monotonic() < deadline, "the game did not get far enough in time"
        for _ in range(3):
            if not gleb.act():
                time.sleep(0.3)
        if game_state(page)["phase"] in ("waiting", "over"):
            break
        fresh = page.context.new_page()
        fresh.goto(table_url)
        wait_for_game(fresh)
        both = same_version_seen_by_both(page, fresh)
        fresh.close()
        if both is None:
            continue
        kept, new = both
        assert kept == new
        compared += 1
    assert compared >= 3, "too few versions were compared"
    assert page.evaluate("window.piecesReceived") > 5, "the page was kept up by pieces"
