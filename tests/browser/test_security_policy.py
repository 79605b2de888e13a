"""The site works in Chromium under its Content Security Policy: the lobby, a table with a
game in play, the control room stopping it, a replay and the admin, with not one violation
reported by the browser."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import DESKTOP, PASSWORD, PHONE, STAFF, manage, played_game
from tests.browser.play import (
    Player,
    console_errors,
    game_state,
    open_table,
    sign_in,
    wait_for_game,
)

pytestmark = pytest.mark.browser
PLAYER = "nina"
ROOT_USER = "root"
MOVES = 6

WATCH = """window.addEventListener("securitypolicyviolation", (e) => window.cspViolated(
    [e.effectiveDirective, e.blockedURI, `${e.sourceFile}:${e.lineNumber}`, e.sample].join(" ")
), true);"""


class Violations:
    """Every violation of the policy the browser reports in a context's pages, from the
    page's own event and from the console."""

    def __init__(self) -> None:
        self.reported: list[str] = []
        self.consoles: list[list[str]] = []

    def watch(self, context: BrowserContext) -> None:
        context.expose_binding(
            "cspViolated", lambda source, text: self.reported.append(f"{source['page'].url} {text}")
        )
        context.add_init_script(WATCH)
        for page in context.pages:
            self.consoles.append(console_errors(page))

    def all(self) -> list[str]:
        said = [line for lines in self.consoles for line in lines if "Security Policy" in line]
        return self.reported + said


def heard(page: Page, violations: Violations, directive: str, seconds: float = 5.0) -> bool:
    """Whether a violation of `directive` was reported within `seconds`: the page's reports
    reach the test only while Playwright waits on the page, and a busy machine takes its
    time to send them."""
    for _ in range(int(seconds / 0.1)):
        if any(directive in line for line in violations.all()):
            return True
        page.wait_for_timeout(100)
    return any(directive in line for line in violations.all())


@pytest.fixture(scope="module")
def finished_game(server: str, site_env: dict[str, str]) -> int:
    return played_game(site_env, PLAYER, players=2)


@pytest.fixture(scope="module")
def superuser(server: str, site_env: dict[str, str]) -> str:
    manage(
        site_env,
        "shell",
        "-c",
        "from accounts.services import create_player; from accounts.models import User; "
        f"create_player({ROOT_USER!r}, {PASSWORD!r}); "
        f"User.objects.filter(username={ROOT_USER!r}).update(is_staff=True, is_superuser=True)",
    )
    return ROOT_USER


def watched(chromium: Browser, server: str, name: str, violations: Violations) -> Page:
    page = sign_in(chromium, server, name, DESKTOP)
    violations.watch(page.context)
    return page


def test_the_lobby_a_game_the_control_room_and_a_replay_violate_nothing(
    chromium: Browser, server: str, finished_game: int, tmp_path: Path
) -> None:
    violations = Violations()
    visitor = chromium.new_context(viewport=PHONE, base_url=server, locale="ru-RU")
    visitor.new_page()
    violations.watch(visitor)
    for url in ("/", "/accounts/login/", "/rules/", "/leaderboard/"):
        visitor.pages[0].goto(url)
    visitor.close()

    player = watched(chromium, server, PLAYER, violations)
    player.goto("/")
    expect(player.locator("#table-rows")).to_be_attached()
    player.select_option("#language", "en")
    expect(player.locator("html")).to_have_attribute("lang", "en")
    table_url = open_table(player, "Policy table", seats=2, bots=True)
    player.locator('#game [data-action="add-bot"]').first.click()
    wait_for_game(player)
    nina = Player(player)
    deadline = time.monotonic() + 120
    while len(nina.done) < MOVES and game_state(player)["phase"] not in ("waiting", "over"):
        assert time.monotonic() < deadline, "no moves could be made"
        if not nina.act():
            time.sleep(0.2)

    staff = watched(chromium, server, STAFF, violations)
    staff.goto("/staff/tables/")
    expect(staff.locator("#live-state.online")).to_be_visible()
    table_id = table_url.rstrip("/").rsplit("/", 1)[1]
    row = staff.locator(f'#staff-rows tr[data-table-id="{table_id}"]')
    expect(row).to_have_attribute("data-state", "running")
    row.locator("summary").click()
    stop = row.locator('form[data-staff-action="stop"]')
    stop.locator("input[name=reason]").fill("the policy test is over")
    stop.locator('[data-action="stop"]').click()
    expect(staff.locator("#staff-notice")).to_have_class(re.compile(r"\binfo\b"))
    expect(player.locator('#game [data-outcome="stopped"]')).to_be_visible()
    player.locator('[data-action="leave"]').click()
    player.wait_for_url(f"{server}/")

    player.goto(f"/games/{finished_game}/")
    player.click('[data-control="forward"]')
    player.select_option("#replay-speed", "8")
    player.click('[data-control="play"]')
    player.wait_for_function(
        "() => Number(document.getElementById('replay-board').dataset.step) > 1", timeout=20_000
    )
    player.click('[data-action="verify"]')
    expect(player.locator("#verify-result")).to_have_attribute("data-verified", "yes")
    exported = player.request.get(f"/games/{finished_game}/export.json")
    (tmp_path / "game.json").write_text(json.dumps(exported.json()))
    player.goto("/replay/")
    player.set_input_files("#replay-file", str(tmp_path / "game.json"))
    player.click('[data-control="last"]')
    expect(player.locator("#replay-board")).to_have_attribute("data-phase", "over")
    for url in ("/history/", "/accounts/profile/", f"/players/{PLAYER}/", "/no-such-page/"):
        player.goto(url)
    for url in ("/staff/players/", "/staff/audit/", "/staff/signals/"):
        staff.goto(url)
    player.context.close()
    staff.context.close()
    assert violations.all() == []


def test_the_admin_violates_nothing(
    chromium: Browser, server: str, finished_game: int, superuser: str
) -> None:
    violations = Violations()
    page = watched(chromium, server, superuser, violations)
    for url in (
        "/admin/",
        "/admin/games/game/",
        f"/admin/games/game/{finished_game}/change/",
        "/admin/games/table/",
        "/admin/accounts/user/",
        "/admin/accounts/user/?q=nina",
    ):
        page.goto(url)
        expect(page.locator("#content")).to_be_visible()
    page.locator("#result_list tbody th a").first.click()
    expect(page.locator("#content form")).to_be_visible()
    assert violations.all() == []
    page.evaluate("document.body.setAttribute('style', 'color: red')")
    assert heard(page, violations, "style-src-attr"), "the watch is deaf"
    page.context.close()
