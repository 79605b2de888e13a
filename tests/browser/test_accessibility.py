"""Every main page read by axe-core at desktop and phone sizes in both languages: no serious
or critical violation; cards and the countdown named for a screen reader; every control
reached from the keyboard with a visible focus.

axe-core comes from npm (`package.json`, installed by `make install`); it is injected into a
browser context that bypasses the Content Security Policy, for this check only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.conftest import DESKTOP, PASSWORD, PHONE, ROOT, STAFF, played_game
from tests.browser.play import open_table, wait_for_game

pytestmark = pytest.mark.browser
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"desktop": DESKTOP, "phone": PHONE}
PLAYER = {("desktop", "en"): "alan", ("phone", "en"): "amir"}
PLAYER |= {("desktop", "ru"): "asya", ("phone", "ru"): "arkady"}
CARD_NAME = {
    "en": re.compile(
        r"^(Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of (spades|clubs|diamonds|hearts)$"
    ),
    "ru": re.compile(r"^[А-Яа-яё]+ (пик|треф|бубен|червей)$"),
}
SERIOUS = """async () => {
    const found = await axe.run(document, {resultTypes: ['violations']});
    return found.violations.filter(v => ['serious', 'critical'].includes(v.impact)).map(
        v => `${v.id} (${v.impact}): `
            + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', '));
}"""


def context_in(chromium: Browser, server: str, viewport: ViewportSize, language: str) -> Page:
    context = chromium.new_context(viewport=viewport, base_url=server, bypass_csp=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    context.set_default_timeout(10_000)
    return context.new_page()


def signed_in(
    chromium: Browser, server: str, viewport: ViewportSize, language: str, name: str
) -> Page:
    page = context_in(chromium, server, viewport, language)
    page.goto("/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]", timeout=30_000)
    page.wait_for_url(server + "/", timeout=30_000)
    return page


def serious_violations(page: Page, shot: Path) -> list[str]:
    page.screenshot(path=str(shot), full_page=True)
    page.add_script_tag(path=str(AXE))
    return [f"{page.url} {found}" for found in page.evaluate(SERIOUS)]


def unfocusable_or_unmarked(page: Page) -> list[str]:
    """Tabs through the page: every control takes the focus in turn and shows it."""
    controls = page.evaluate(
        """() => [...document.querySelectorAll(`a[href], button:not([disabled]), input, select,
            textarea, [tabindex]:not([tabindex="-1"])`)].filter(e => e.getClientRects().length
            && getComputedStyle(e).visibility !== 'hidden' && !e.closest('[inert]')).length"""
    )
    reached, unmarked = 0, []
    for _ in range(controls + 2):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            """() => { const e = document.activeElement;
                if (!e || e === document.body) return null;
                const style = getComputedStyle(e);
                const marked = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
                    || style.boxShadow !== 'none';
                return {name: e.tagName + '#' + e.id + '.' + e.className, marked: marked}; }"""
        )
        if focused is None:
            continue
        reached += 1
        if not focused["marked"]:
            unmarked.append(f"{page.url} {focused['name']} shows no focus")
    return unmarked if reached >= controls else [*unmarked, f"{page.url}: {reached}/{controls}"]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_main_pages_have_no_serious_accessibility_violation(
    chromium: Browser, server: str, site_env: dict, screenshots: Path, size: str, language: str
) -> None:
    assert AXE.exists(), "axe-core is missing: run make install"
    viewport, name = SIZES[size], PLAYER[(size, language)]
    game = played_game(site_env, name, players=2)
    found: list[str] = []

    def check(page: Page, what: str) -> None:
        found.extend(serious_violations(page, screenshots / f"a11y-{what}-{size}-{language}.png"))

    visitor = context_in(chromium, server, viewport, language)
    visitor.goto("/accounts/login/")
    check(visitor, "login")
    visitor.context.close()

    page = signed_in(chromium, server, viewport, language, name)
    check(page, "lobby")
    found.extend(unfocusable_or_unmarked(page))
    open_table(page, f"Axe {size} {language}", seats=2, bots=True)
    page.locator('#game [data-action="add-bot"]').click()
    wait_for_game(page)
    expect(page.locator("#hand .hand-card").first).to_be_visible()
    check(page, "table")
    named = CARD_NAME[language]
    for card in page.locator("#hand .hand-card").all():
        expect(card).to_have_attribute("aria-label", named)
    expect(page.locator("#countdown")).to_have_attribute("aria-label", re.compile(r"\S"))
    found.extend(unfocusable_or_unmarked(page))
    for path, what in [
        ("/history/", "history"),
        (f"/games/{game}/", "replay"),
        ("/leaderboard/", "leaderboard"),
        ("/accounts/profile/", "profile"),
    ]:
        page.goto(path)
        check(page, what)
    page.context.close()

    staff = signed_in(chromium, server, viewport, language, STAFF)
    staff.goto("/staff/tables/")
    check(staff, "control-room")
    staff.context.close()
    assert not found, "\n".join(found)
