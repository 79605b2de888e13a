"""A finished game found again in the history, replayed step by step from every view,
verified in the browser, exported and loaded back, and practised."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import DESKTOP, PHONE, manage, played_game
from tests.browser.play import sign_in

pytestmark = pytest.mark.browser
PLAYER = "irina"


@pytest.fixture(scope="module")
def game_id(server: str, site_env: dict[str, str]) -> int:
    return played_game(site_env, PLAYER, players=3)


BOARD = """() => {
    const b = document.getElementById('replay-board');
    const all = (root, selector) => [...root.querySelectorAll(selector)];
    return {
        step: Number(b.dataset.step), phase: b.dataset.phase, seat: b.dataset.seat,
        hand: all(b, '.hand-card').map(c => c.dataset.card),
        pairs: all(b, '.pair').map(p => [p.dataset.attack, p.dataset.defence || null]),
        counts: Object.fromEntries(
            all(b, '.seat').map(s => [s.dataset.seat, Number(s.dataset.cards)])),
        open: all(b, '.seat').map(s => all(s, '.open-hand .card').map(c => c.dataset.code)),
        current: all(document, '#replay-log li.current').length,
    };
}"""


def board(page: Page) -> dict[str, Any]:
    """What the replay draws now, read from the page."""
    return page.evaluate(BOARD)


def expect_step(page: Page, step: int) -> None:
    expect(page.locator("#replay-board")).to_have_attribute("data-step", str(step))


def test_a_player_finds_a_game_steps_through_its_replay_and_verifies_the_deal(
    chromium, server, game_id, screenshots, tmp_path
):
    page = sign_in(chromium, server, PLAYER, DESKTOP)
    page.goto("/accounts/profile/")
    page.click('[data-action="history"]')
    row = page.locator(f'.history-row[data-game="{game_id}"]')
    expect(row).to_be_visible()
    row.locator(f'a[href="/games/{game_id}/"]').click()
    page.wait_for_url(f"**/games/{game_id}/")
    expect_step(page, 0)

    opened = page.request.get(f"/games/{game_id}/replay.json?seat=all").json()
    first = board(page)
    assert first["open"] == opened["steps"][0]["view"]["hands"]
    page.click('[data-control="forward"]')
    expect_step(page, 1)
    page.locator("body").press("ArrowRight")
    expect_step(page, 2)
    page.locator("body").press("ArrowLeft")
    expect_step(page, 1)

    page.select_option("#replay-seat", "0")
    expect(page.locator("#replay-board")).to_have_attribute("data-seat", "0")
    frames = page.request.get(f"/games/{game_id}/replay.json?seat=0").json()["steps"]
    page.click('[data-control="first"]')
    for number, frame in enumerate(frames):
        expect_step(page, number)
        shown, view = board(page), frame["view"]
        assert shown["hand"] == view["hand"], f"step {number}"
        assert shown["pairs"] == view["table"], f"step {number}"
        assert shown["counts"] == {str(s): view["counts"][s] for s in (1, 2)}, f"step {number}"
        if number < len(frames) - 1:
            page.click('[data-control="forward"]')
    assert board(page)["phase"] == "over" and board(page)["current"] >= 1

    page.locator("#replay-slider").fill("3")
    expect_step(page, 3)
    page.select_option("#replay-speed", "8")
    page.click('[data-control="play"]')
    page.wait_for_function("() => Number(document.getElementById('replay-board').dataset.step) > 3")
    page.click('[data-control="play"]')
    expect(page.locator('[data-control="play"]')).to_have_attribute("aria-pressed", "false")
    page.screenshot(path=str(screenshots / "replay-desktop.png"), full_page=True)

    page.click('[data-action="verify"]')
    expect(page.locator("#verify-result")).to_have_attribute("data-verified", "yes")

    exported = page.request.get(f"/games/{game_id}/export.json")
    path = Path(tmp_path) / "game.json"
    path.write_text(json.dumps(exported.json()))
    page.goto("/replay/")
    page.set_input_files("#replay-file", str(path))
    expect_step(page, 0)
    expect(page.locator("#replay-seat option")).to_have_count(4)
    page.click('[data-control="last"]')
    expect(page.locator("#replay-board")).to_have_attribute("data-phase", "over")
    page.context.close()


def test_the_replay_controls_wait_for_the_steps_and_a_click_while_loading_is_not_lost(
    chromium, server, game_id
):
    page = sign_in(chromium, server, PLAYER, DESKTOP)
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/replay.json*", hold)
    page.goto(f"/games/{game_id}/")
    expect(page.locator('[data-control="play"]')).to_be_disabled()
    expect(page.locator("#replay-slider")).to_be_disabled()
    expect(page.locator(".replay-status")).to_be_visible()
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1, "the page never asked for the replay's steps"
    held[0].continue_()
    page.click('[data-control="forward"]')
    expect_step(page, 1)
    page.context.close()


def test_the_replay_fits_a_phone_and_a_deal_can_be_practised(
    chromium, server, game_id, screenshots
):
    page = sign_in(chromium, server, PLAYER, PHONE)
    page.goto(f"/games/{game_id}/")
    expect_step(page, 0)
    page.click('[data-control="forward"]')
    page.click('[data-control="forward"]')
    expect_step(page, 2)
    page.screenshot(path=str(screenshots / "game-page-phone.png"), full_page=True)
    wide = page.evaluate(
        """() => [...document.querySelectorAll('main *')].filter(e =>
            e.getBoundingClientRect().right > window.innerWidth + 1).map(e =>
            e.tagName + '.' + e.className).slice(0, 8)"""
    )
    assert wide == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#replay").screenshot(path=str(screenshots / "replay-phone.png"))
    page.select_option("select[name=seat]", "1")
    page.click('[data-action="practice"]')
    page.wait_for_url("**/tables/*/")
    expect(page.locator(".practice-note")).to_be_visible()
    expect(page.locator("#game")).to_have_attribute("data-seat", "1")
    page.click('[data-action="leave"]')
    page.wait_for_url(server + "/")
    page.context.close()


def test_a_seated_browser_adds_its_own_seed_to_the_next_deal(chromium, server):
    page = sign_in(chromium, server, "yuri", DESKTOP)
    page.goto("/tables/new/")
    page.fill("input[name=name]", "Seeds")
    page.fill("input[name=stake]", "0")
    page.click("main form button[type=submit]")
    page.wait_for_url("**/tables/*/")
    commitment = page.locator("[data-commitment]")
    expect(commitment).to_have_attribute("data-commitment", re.compile(r"^[0-9a-f]{64}$"))
    expect(page.locator(".seed-sent")).to_be_visible()
    page.click('[data-action="leave"]')
    page.context.close()


THOUGHT_LONG = """
from datetime import timedelta
from games.models import Game
game = Game.objects.get(pk={game})
for event in game.events.filter(seq__gt=1):
    event.data["at"] += 12
    event.save(update_fields=["data"])
Game.objects.filter(pk=game.pk).update(finished_at=game.finished_at + timedelta(seconds=12))
"""


def test_autoplay_waits_at_most_two_seconds_of_game_time_for_a_long_think(
    chromium, server, site_env, tmp_path
):
    slow = played_game(site_env, PLAYER, players=2)
    manage(site_env, "shell", "-c", THOUGHT_LONG.format(game=slow))
    page = sign_in(chromium, server, PLAYER, DESKTOP)
    record = page.request.get(f"/games/{slow}/export.json").json()
    assert record["events"][1]["at"] - record["events"][0]["at"] > 12
    path = Path(tmp_path) / "slow.json"
    path.write_text(json.dumps(record))
    page.goto("/replay/")
    page.set_input_files("#replay-file", str(path))
    expect_step(page, 0)
    expect(page.locator(".replay-note")).to_contain_text("2")
    page.select_option("#replay-speed", "1")
    page.click('[data-control="play"]')
    page.wait_for_function(
        "() => Number(document.getElementById('replay-board').dataset.step) >= 1", timeout=4_000
    )
    page.context.close()
