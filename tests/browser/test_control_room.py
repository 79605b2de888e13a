from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import DESKTOP, PHONE, STAFF
from tests.browser.play import open_table, sign_in, wait_for_game

pytestmark = pytest.mark.browser


def test_the_control_room_follows_a_table_live_and_stops_its_game_with_the_players_told(
    chromium: Browser, server: str, screenshots: Path
) -> None:
    staff = sign_in(chromium, server, STAFF, DESKTOP)
    staff.goto("/staff/tables/")
    expect(staff.locator("#live-state.online")).to_be_visible()

    player = sign_in(chromium, server, "fedor", PHONE)
    table_url = open_table(player, "Fedor's table", seats=2, bots=True)
    table_id = table_url.rstrip("/").rsplit("/", 1)[1]
    row = staff.locator(f'#staff-rows tr[data-table-id="{table_id}"]')
    expect(row).to_have_attribute("data-state", "waiting")
    expect(row.locator(".players")).to_contain_text("fedor")

    player.locator('#game [data-action="add-bot"]').first.click()
    wait_for_game(player)
    expect(row).to_have_attribute("data-state", "running")
    expect(row).not_to_have_attribute("data-version", "")
    expect(row.locator(".bank")).to_contain_text("20")

    staff.check('[data-filter="stuck"]')
    expect(row).to_be_hidden()
    staff.check('[data-filter="running"]')
    expect(row).to_be_visible()
    staff.screenshot(path=screenshots / "control-room-desktop.png", full_page=True)

    row.locator("summary").click()
    stop = row.locator('form[data-staff-action="stop"]')
    stop.locator("input[name=reason]").fill("a browser test")
    stop.locator('[data-action="stop"]').click()
    expect(staff.locator("#staff-notice")).not_to_be_empty()
    staff.check('[data-filter="all"]')
    expect(row).to_have_attribute("data-state", "waiting")
    expect(staff.locator('#audit-rows tr[data-kind="stop_game"]')).to_contain_text("a browser test")
    expect(player.locator('#game [data-outcome="stopped"]')).to_be_visible()
    expect(player.locator("#game .receipt.refunds")).to_contain_text("10")
    player.locator('[data-action="leave"]').click()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_on_a_phone_the_control_room_shows_each_table_as_a_card_with_every_action_reachable(
    people, screenshots: Path, language: str
) -> None:
    player = people("ilya" if language == "en" else "inna", PHONE)
    table_url = open_table(player, f"Phone room {language}", seats=2, bots=True)
    table_id = table_url.rstrip("/").rsplit("/", 1)[1]
    staff = people(STAFF, PHONE, locale="en-GB" if language == "en" else "ru-RU")
    staff.context.add_cookies([{"name": "django_language", "value": language, "url": staff.url}])
    staff.goto("/staff/tables/")
    row = staff.locator(f'#staff-rows tr[data-table-id="{table_id}"]')
    expect(row).to_be_visible()
    assert staff.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    row.locator("summary").click()
    actions = row.locator("details form button")
    assert actions.count() >= 3
    for index in range(actions.count()):
        found = actions.nth(index).bounding_box()
        assert found is not None and found["x"] >= 0
        assert found["x"] + found["width"] <= PHONE["width"], actions.nth(index).inner_text()
    staff.screenshot(path=str(screenshots / f"control-room-phone-{language}.png"), full_page=True)
