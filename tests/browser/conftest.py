"""A real Daphne process on a throwaway SQLite file, and Debian's Chromium driven by Playwright.

Browser tests are plain sync functions: Playwright's sync API must not run inside the
asyncio loop that pytest-asyncio provides to async tests.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
SERVER_LOG = (
    ROOT / "artifacts" / f"browser-server-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
)
"""Each worker's test site logs to a file of its own: one shared file kept only the last."""
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
PASSWORD = "plays-durak-in-tests"
PLAYERS = (
    *("anna", "boris", "carla", "dmitri", "elena", "fedor", "galina", "irina", "yuri"),
    *("vera", "oleg", "zoya"),
    *("hanna", "igor", "julia", "kirill", "lena", "misha", "nina", "pavel"),
    *("polina", "roman", "stepan", "taras", "uliana", "rita", "zakhar", "artem"),
    *("bella", "chen", "daria", "egor", "faina", "gleb", "lada"),
    *("asya", "alan", "arkady", "amir", "vlad", "vika", "ilya", "inna"),
)
STAFF = "sofia"
WHOLE_GAME = pytest.mark.xdist_group("whole_games")
"""A test that plays a whole game against bots (minutes of their 1.5-3 s moves, little CPU):
`make test` runs these one after another in one process while the rest share the other."""
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def chromium_missing() -> str | None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = chromium_missing()
    if reason is None:
        return
    for item in items:
        if item.get_closest_marker("browser") is None:
            continue
        if os.environ.get("CI", "").lower() == "true":
            raise pytest.UsageError(f"{item.nodeid} needs a browser: {reason}")
        item.add_marker(pytest.mark.skip(reason=f"browser tests: {reason}"))


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def played_game(env: dict[str, str], seat: str, players: int) -> int:
    """A game that is over, played by ``play_bots`` with ``seat`` on the autopilot: its id."""
    ran = subprocess.run(
        [sys.executable, "manage.py", "play_bots", "--games", "1", "--players", str(players)]
        + ["--seat", seat],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, f"play_bots failed:\n{ran.stdout}\n{ran.stderr}"
    return int(ran.stdout.split()[-1])


@pytest.fixture(scope="session")
def site_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of the test site: ``manage(site_env, ...)`` works on its database."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DJANGO_DEBUG": "1",
        "SQLITE_PATH": str(tmp_path_factory.mktemp("site") / "site.sqlite3"),
        "DURAK_EMBEDDED_SCHEDULER": "1",
        "DURAK_LOGINS_PER_MINUTE": "1000",
        "DURAK_SIGN_UPS_PER_HOUR": "1000",
        "DURAK_CONNECTS_PER_MINUTE": "1000",
        "DURAK_ADDRESS_CONNECTS_PER_MINUTE": "1000",
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    return env


@pytest.fixture(scope="session")
def server(site_env: dict[str, str]) -> Iterator[str]:
    """The site's base URL, served by Daphne with the embedded scheduler."""
    port = free_port()
    env = site_env
    manage(env, "migrate", "--noinput")
    create = "; ".join(f"create_player({name!r}, {PASSWORD!r})" for name in (*PLAYERS, STAFF))
    promote = f"User.objects.filter(username={STAFF!r}).update(is_staff=True)"
    manage(
        env,
        "shell",
        "-c",
        f"from accounts.services import create_player; from accounts.models import User; "
        f"{create}; {promote}",
    )
    daphne = Path(sys.executable).with_name("daphne")
    # A file, not a pipe: a pipe nobody reads fills up and stops the server mid-suite.
    SERVER_LOG.parent.mkdir(parents=True, exist_ok=True)
    log = SERVER_LOG.open("w")
    process = subprocess.Popen(
        [
            str(daphne),
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "--websocket_timeout",
            "-1",
            "durak_site.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(url + "/", timeout=1)
            break
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.2)
    yield url
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    log.close()


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def people(chromium: Browser, server: str) -> Iterator[Callable[..., Page]]:
    """Signs people in (as `play.sign_in`) and closes their browsers after the test, so
    their sockets do not keep games going for the rest of the session."""
    from tests.browser.play import sign_in

    pages: list[Page] = []

    def sign(name: str, viewport: ViewportSize, **options: Any) -> Page:
        page = sign_in(chromium, server, name, viewport, **options)
        pages.append(page)
        return page

    yield sign
    for page in pages:
        page.context.close()
