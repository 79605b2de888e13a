"""The table chat in two browsers: a line, a reaction by the seat, a mute, the limit, and on
a phone a folded chat that counts what is unread."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import open_table, sign_in, sit_down, wait_for_game

pytestmark = pytest.mark.browser


def write(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-text")).to_have_value("")


def test_two_players_chat_during_a_game_and_the_phone_folds_the_chat_with_a_count(
    chromium: Browser, server: str, screenshots: Path
) -> None:
    anna = sign_in(chromium, server, "elena", DESKTOP)
    boris = sign_in(chromium, server, "fedor", PHONE)
    table_url = open_table(anna, "Chat table", seats=2, bots=False)
    sit_down(boris, table_url)
    wait_for_game(anna)
    wait_for_game(boris)

    expect(boris.locator("#chat-body")).to_be_hidden()
    expect(boris.locator(".chat-unread")).to_be_hidden()
    write(anna, "<b>bold</b> hello")
    expect(boris.locator(".chat-unread")).to_have_text("1")
    write(anna, "second")
    expect(boris.locator(".chat-unread")).to_have_text("2")
    boris.screenshot(path=screenshots / "chat-phone-folded.png")
    boris.click(".chat-toggle")
    expect(boris.locator("#chat-body")).to_be_visible()
    expect(boris.locator(".chat-unread")).to_be_hidden()
    line = boris.locator("#chat-lines .chat-line", has_text="bold").locator(".chat-text")
    expect(line).to_have_text("<b>bold</b> hello")
    assert boris.locator("#chat-lines b").count() == 0

    seat = boris.eval_on_selector("#game", "g => g.dataset.seat")
    boris.click('.chat-reactions .reaction:text("Спасибо")')
    bubble = anna.locator(f'.reaction-bubble[data-seat="{seat}"]')
    expect(bubble).to_have_text("Спасибо")
    seat_box = anna.locator(f'#game .seat[data-seat="{seat}"]').bounding_box()
    bubble_box = bubble.bounding_box()
    assert seat_box is not None and bubble_box is not None
    middle = bubble_box["x"] + bubble_box["width"] / 2
    assert seat_box["x"] <= middle <= seat_box["x"] + seat_box["width"]
    anna.screenshot(path=screenshots / "chat-desktop.png", full_page=True)
    boris.screenshot(path=screenshots / "chat-phone-open.png")
    expect(bubble).to_have_count(0, timeout=6_000)

    anna.locator("#chat-lines .chat-line", has_text="Спасибо").hover()
    anna.locator("#chat-lines .chat-line", has_text="Спасибо").locator(".chat-mute").click()
    expect(anna.locator("#chat-muted")).to_contain_text("fedor")
    expect(anna.locator("#chat-lines .chat-line", has_text="Спасибо")).to_have_count(0)
    write(boris, "can you hear me")
    expect(boris.locator("#chat-lines")).to_contain_text("can you hear me")
    expect(anna.locator("#chat-lines")).not_to_contain_text("can you hear me")

    for n in range(6):
        write(anna, f"quick {n}")
    expect(anna.locator("#notice")).to_contain_text("Не так быстро")
    expect(anna.locator("#chat-lines .chat-line", has_text="quick 2")).to_have_count(1)
    assert anna.locator("#chat-lines .chat-line", has_text="quick 5").count() == 0
