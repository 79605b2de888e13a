from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import open_table, sign_in, wait_for_game

pytestmark = pytest.mark.browser


def test_the_lobby_shows_new_tables_and_seats_live_and_lets_people_join_watch_and_quick_play(
    chromium: Browser, server: str, screenshots: Path
) -> None:
    watcher = sign_in(chromium, server, "dmitri", DESKTOP)
    host = sign_in(chromium, server, "elena", PHONE)
    expect(watcher.locator(".site-header .balance")).to_contain_text("1")
    table_url = open_table(host, "Elena's table", seats=3, bots=True)
    table_id = table_url.rstrip("/").rsplit("/", 1)[1]
    row = watcher.locator(f'.table-row[data-table-id="{table_id}"]')
    expect(row).to_have_attribute("data-taken", "1")
    host.locator('#game [data-action="add-bot"]').first.click()
    expect(row).to_have_attribute("data-taken", "2")
    host.screenshot(path=screenshots / "waiting-phone.png", full_page=True)
    watcher.screenshot(path=screenshots / "lobby-desktop.png", full_page=True)

    row.locator('[data-action="join"]').click()
    watcher.wait_for_url(table_url)
    wait_for_game(watcher)
    wait_for_game(host)

    spectator = sign_in(chromium, server, "galina", PHONE)
    spectator_row = spectator.locator(f'.table-row[data-table-id="{table_id}"]')
    expect(spectator_row.locator('[data-action="spectate"]')).to_be_visible()
    spectator.screenshot(path=screenshots / "lobby-phone.png", full_page=True)
    spectator_row.locator('[data-action="spectate"]').click()
    wait_for_game(spectator)
    expect(spectator.locator("#game")).to_have_attribute("data-role", "spectator")
    expect(spectator.locator("#hand")).to_have_count(0)
    expect(spectator.locator("#game .seat")).to_have_count(3)

    spectator.goto("/")
    spectator.fill("#id_stake", "20")  # no table waits at this stake: a new one with a bot
    spectator.click('[data-action="quick-play"]')
    spectator.wait_for_url("**/tables/*/")
    wait_for_game(spectator)
    expect(spectator.locator("#hand .hand-card")).to_have_count(6)
    expect(spectator.locator("#game .seat .mark.bot")).to_have_count(1)
