"""Acting in a game page the way a person does: read the page, press what is enabled."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import PASSWORD

LOGIN_SECONDS = 30


def sign_in(
    browser: Browser,
    server: str,
    name: str,
    viewport: ViewportSize,
    locale: str = "ru-RU",
    reduced_motion: Literal["reduce", "no-preference"] | None = None,
) -> Page:
    context = browser.new_context(
        viewport=viewport, base_url=server, locale=locale, reduced_motion=reduced_motion
    )
    context.set_default_timeout(5_000)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    # Hashing the password shares the server's one database thread with every game it
    # plays: on a busy machine a login can take longer than a move.
    page.click("main button[type=submit]", timeout=LOGIN_SECONDS * 1000)
    page.wait_for_url(server + "/", timeout=LOGIN_SECONDS * 1000)
    return page


def console_errors(page: Page) -> list[str]:
    """Every error the page's console shows from now on, failed loads included."""
    errors: list[str] = []
    page.on(
        "console",
        lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None,
    )
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.on(
        "response",
        lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    return errors


def game_state(page: Page) -> dict[str, str]:
    return page.eval_on_selector(
        "#game", "g => ({version: g.dataset.version, phase: g.dataset.phase, role: g.dataset.role})"
    )


def wait_for_game(page: Page, timeout: float = 15_000) -> None:
    page.wait_for_selector("#game[data-phase]:not([data-phase=waiting])", timeout=timeout)


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
    expect(page.locator("#game")).not_to_have_attribute("data-seat", "")


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


@dataclass
class Player:
    """One person at the table; `wants` says which of take/transfer they still want to try."""

    page: Page
    wants: set[str] = field(default_factory=set)
    done: list[str] = field(default_factory=list)
    headlines: list[str] = field(default_factory=list)
    keyboard: bool = False

    def enabled(self, action: str) -> bool:
        button = self.page.locator(f'#game button[data-action="{action}"]:not([disabled])')
        return button.count() > 0

    def act(self) -> str | None:
        """Make one legal move if there is one; returns what was done. A button that the
        game disables between looking and pressing counts as nothing done."""
        try:
            return self.try_move()
        except PlaywrightTimeout:
            return None

    def try_move(self) -> str | None:
        page = self.page
        state = game_state(page)
        if state["phase"] in ("waiting", "over"):
            return None
        for wanted in ("transfer", "take"):
            if wanted in self.wants and self.enabled(wanted):
                return self.press(wanted, state)
        playable = page.locator("#hand .hand-card.playable")
        if playable.count():
            card = playable.first
            targets = (card.get_attribute("data-targets") or "").split()
            self.press_button(card)
            if card.get_attribute("data-action") == "defend" and len(targets) > 1:
                self.press_button(page.locator(f'#table .attack-card[data-target="{targets[0]}"]'))
            return self.settle(state, "card")
        if self.enabled("take"):
            return self.press("take", state)
        if self.enabled("pass"):
            return self.press("pass", state)
        return None

    def press_button(self, button: Locator) -> None:
        if self.keyboard:
            button.focus()
            self.page.keyboard.press("Enter")
        else:
            button.click()

    def press(self, action: str, state: dict[str, str]) -> str | None:
        self.page.click(f'#game button[data-action="{action}"]')
        if action == "transfer" and self.page.locator("#hand.choosing").count():
            self.page.locator("#hand .hand-card.can-transfer").first.click()
        done = self.settle(state, action)
        if done is not None and action in self.wants:
            self.wants.discard(action)
        if done == "transfer":
            self.headlines.append(self.page.inner_text("#headline"))
        return done

    def settle(self, before: dict[str, str], action: str) -> str | None:
        """Waits until the page shows a newer version than the one acted on."""
        try:
            self.page.wait_for_function(
                "v => { const g = document.getElementById('game');"
                " return !g || g.dataset.version !== v; }",
                arg=before["version"],
                timeout=5_000,
            )
        except PlaywrightTimeout:
            return None
        self.done.append(action)
        return action
