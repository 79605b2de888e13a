"""The feel of play: cards that move, what can be played, the tab that calls, the keys."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.models import BOT_DELAY
from tests.browser.conftest import DESKTOP, PHONE, WHOLE_GAME
from tests.browser.play import (
    Player,
    console_errors,
    game_state,
    open_table,
    wait_for_game,
)

pytestmark = pytest.mark.browser
GAME_SECONDS = 240
SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}

# A stand-in for the browser's audio, counting the sounds the page makes.
COUNT_SOUNDS = """
window.__sounds = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() { return {frequency: {}, connect: (x) => x, start() { window.__sounds++; },
                               stop() {}}; }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}},
                         connect: (x) => x}; }
};
"""


def against_a_bot(page: Page, name: str) -> None:
    open_table(page, name, seats=2, bots=True)
    page.locator('#game [data-action="add-bot"]').first.click()
    wait_for_game(page)


def at_rest(page: Page) -> None:
    """No card is still on its way: every transform is gone and no ghost is left."""
    page.wait_for_function(
        "() => !document.querySelector('.card.moving, .ghost')"
        " && [...document.querySelectorAll('#game .card')].every(c => !c.style.transform)",
        timeout=3_000,
    )


def moves(page: Page) -> int:
    return int(page.get_attribute("#table-socket", "data-moves") or 0)


@WHOLE_GAME
@pytest.mark.parametrize(
    ("size", "viewport", "name"), [("desktop", DESKTOP, "hanna"), ("phone", PHONE, "igor")]
)
def test_a_whole_game_moves_its_cards_and_shows_no_console_error(
    people, server: str, screenshots: Path, size: str, viewport: dict, name: str
) -> None:
    page = people(name, viewport)
    errors = console_errors(page)
    against_a_bot(page, f"Moving cards {size}")
    player = Player(page)
    shots: set[str] = set()
    deadline = time.monotonic() + GAME_SECONDS
    while game_state(page)["phase"] != "waiting":
        assert time.monotonic() < deadline, "the game did not end in time"
        pairs = page.locator("#table .pair").count()
        if pairs and moves(page) and "table" not in shots:
            at_rest(page)
            page.screenshot(path=screenshots / f"moved-{size}.png")
            shots.add("table")
        if not player.act():
            time.sleep(0.2)
    assert moves(page) > 0, "no card was seen moving"
    page.wait_for_timeout(500)
    page.screenshot(path=screenshots / f"moved-result-{size}.png", full_page=True)
    assert errors == []


def test_with_reduced_motion_nothing_moves_and_play_goes_on(people, server: str) -> None:
    page = people("julia", DESKTOP, reduced_motion="reduce")
    against_a_bot(page, "Still cards")
    player = Player(page)
    made = 0
    deadline = time.monotonic() + 60
    while made < 4 and time.monotonic() < deadline and game_state(page)["phase"] != "waiting":
        made += bool(player.act())
        time.sleep(0.2)
    assert made >= 2
    assert moves(page) == 0
    assert page.locator(".card.moving, .ghost").count() == 0


def test_the_playable_cards_stand_out_and_the_others_are_dimmed(
    people, server: str, screenshots: Path
) -> None:
    page = people("kirill", PHONE)
    against_a_bot(page, "Marked cards")
    until_a_card_is_playable(page)
    dimmed = page.locator("#hand .hand-card[aria-disabled] .card")
    if dimmed.count():
        assert float(dimmed.first.evaluate("c => getComputedStyle(c).opacity")) < 1
    playable = page.locator("#hand .hand-card.playable .card").first
    assert float(playable.evaluate("c => getComputedStyle(c).opacity")) == 1
    page.screenshot(path=screenshots / "playable-phone.png")


def until_a_card_is_playable(page: Page, seconds: float = 60) -> None:
    """Play on until the hand has a card to play: a deal may open with the bot's lead that
    the person can only take, or leave them nothing to throw in but a pass."""
    player = Player(page)
    deadline = time.monotonic() + seconds
    while not page.locator("#hand .hand-card.playable").count():
        assert time.monotonic() < deadline, "no card of the hand became playable"
        if player.enabled("take") or player.enabled("pass"):
            player.act()
        time.sleep(0.2)


def tab_is(page: Page, state: str) -> None:
    """The tab goes to the background or comes back, as far as the page can tell."""
    page.evaluate(
        """s => { Object.defineProperty(document, 'visibilityState',
                                        {get: () => s, configurable: true});
                  document.dispatchEvent(new Event('visibilitychange')); }""",
        state,
    )


def test_a_background_tab_calls_the_player_and_the_sound_is_remembered(people, server: str) -> None:
    page = people("lena", DESKTOP, locale="en-GB")
    page.add_init_script(COUNT_SOUNDS)
    against_a_bot(page, "Calling tab")
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.reload()
    wait_for_game(page)
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    tab_is(page, "hidden")
    page.evaluate("() => { window.__sounds = 0; }")
    player = Player(page)
    deadline = time.monotonic() + 90
    while not page.evaluate("() => window.__sounds") or not page.locator(".me.waited-on").count():
        assert time.monotonic() < deadline, "the game never came back to this player"
        if not player.act():
            time.sleep(0.2)
    expect(page).to_have_title(re.compile(r"^Your move · "))
    assert "favicon-turn" in page.get_attribute('link[rel="icon"]', "href")
    tab_is(page, "visible")
    assert not page.title().startswith("Your move")
    assert "favicon-turn" not in page.get_attribute('link[rel="icon"]', "href")


def a_card_to_play(page: Page) -> tuple[int, str]:
    """The place in the hand and the code of a card the player may play, once the bot cannot
    move first: the picture has stayed as it is for longer than a bot waits to act (R16)."""
    while True:
        page.wait_for_selector("#hand .hand-card.playable", timeout=60_000)
        version = game_state(page)["version"]
        time.sleep(BOT_DELAY[1] + 0.2)
        if game_state(page)["version"] != version:
            continue
        cards = page.locator("#hand .hand-card").evaluate_all(
            "cs => cs.map(c => [c.dataset.card, c.classList.contains('playable')])"
        )
        playable = [index for index, (_code, ok) in enumerate(cards) if ok]
        if playable and playable[0] < 10:
            return playable[0], cards[playable[0]][0]


def test_a_desktop_player_plays_with_the_digit_keys(people, server: str) -> None:
    page = people("misha", DESKTOP, locale="en-GB")
    against_a_bot(page, "Keys")
    index, card = a_card_to_play(page)
    page.keyboard.press(str((index + 1) % 10))
    if page.locator("#table .attack-card.choosing").count():
        page.keyboard.press("1")
    expect(page.locator(f'#hand [data-card="{card}"]')).to_have_count(0, timeout=5_000)
    label = card.replace("T", "10")[:-1] + SUITS[card[-1]]
    played = re.compile(rf"^misha (leads|throws in|beats \S+ with) {label}$")
    expect(page.locator("#log li").filter(has_text=played)).to_have_count(1)


def test_r15_the_move_timers_count_down_to_the_games_one_deadline(people, server: str) -> None:
    page = people("lada", DESKTOP)
    against_a_bot(page, "Timers")
    seconds = page.locator("#game .timer .seconds").first
    expect(seconds).to_have_text(re.compile(r"^\d+ "), timeout=20_000)
    shown, left = page.evaluate(
        """() => {
          const attrs = document.getElementById('game-attrs').dataset;
          const offset = parseInt(attrs.now, 10) - Date.now();
          const left = (parseInt(attrs.deadline, 10) - Date.now() - offset) / 1000;
          return [document.querySelector('#game .timer .seconds').textContent, left];
        }"""
    )
    assert abs(int(shown.split()[0]) - left) <= 1.5
