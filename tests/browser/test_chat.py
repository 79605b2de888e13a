"""The table chat in two browsers: a line, a reaction by the seat, a mute, the limit, and on
a phone a folded chat that counts what is unread."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, ROOT
from tests.browser.play import open_table, sign_in, sit_down, wait_for_game

pytestmark = pytest.mark.browser


def write(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-text")).to_have_value("")


def test_two_players_chat_during_a_game_and_the_phone_folds_the_chat_with_a_count(
    chromium: Browser, server: str, screenshots: Path
) -> None:
    anna = sign_in(chromium, server, "vera", DESKTOP)
    boris = sign_in(chromium, server, "oleg", PHONE)
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
    expect(anna.locator("#chat-muted")).to_contain_text("oleg")
    expect(anna.locator("#chat-lines .chat-line", has_text="Спасибо")).to_have_count(0)
    write(boris, "can you hear me")
    expect(boris.locator("#chat-lines")).to_contain_text("can you hear me")
    expect(anna.locator("#chat-lines")).not_to_contain_text("can you hear me")

    for n in range(6):
        write(anna, f"quick {n}")
    expect(anna.locator("#notice")).to_contain_text("Не так быстро")
    expect(anna.locator("#chat-lines .chat-line", has_text="quick 2")).to_have_count(1)
    assert anna.locator("#chat-lines .chat-line", has_text="quick 5").count() == 0


SCRIPT = '<script>document.title = "owned"</script><b>bold</b>'
SAY_IN_A_GAME = """
from chat.models import Message
from games.models import Game
game = Game.objects.get(pk={game})
author = game.players.exclude(player=None).get().player
for seq, text in ((3, {script!r}), (game.event_seq, "well played")):
    Message.objects.create(table=game.table, game=game, after_seq=seq, author=author, text=text)
"""


def manage_output(site_env: dict[str, str], *args: str) -> str:
    ran = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=site_env,
        capture_output=True,
        text=True,
        check=True,
    )
    return ran.stdout


def test_what_was_said_shows_as_text_in_the_history_and_in_the_replay_at_its_step(
    chromium: Browser, server: str, site_env: dict[str, str]
) -> None:
    output = manage_output(site_env, "play_bots", "--games", "1", "--seat", "zoya")
    game = int(output.split()[-1])
    manage_output(site_env, "shell", "-c", SAY_IN_A_GAME.format(game=game, script=SCRIPT))
    page = sign_in(chromium, server, "zoya", DESKTOP)
    page.goto(f"/games/{game}/")
    said = page.locator("#replay-log .chat-line")
    expect(said).to_have_count(2)
    expect(said.first.locator(".chat-text")).to_have_text(SCRIPT)
    expect(said.last).to_contain_text("well played")
    assert page.locator("#replay-log script, #replay-log b, #moves script, #moves b").count() == 0
    assert page.title() != "owned"
    said.first.click()
    step = said.first.get_attribute("data-step")
    expect(page.locator("#replay-board")).to_have_attribute("data-step", step or "")
    expect(said.first).to_have_class("chat-line current")
