"""The site's own processes (Daphne servers, schedulers) on the test database, for the
scale-out tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_environment(**extra: str) -> dict[str, str]:
    database = settings.DATABASES["default"]
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": url,
        "DURAK_EMBEDDED_SCHEDULER": "0",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


class Processes:
    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.running: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, args: list[str], **env: str) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            args,
            cwd=ROOT,
            env=server_environment(**env),
            stdout=(self.logs / f"{name}.out").open("wb"),
            stderr=(self.logs / f"{name}.log").open("wb"),
        )
        self.running[name] = process
        return process

    def server(self, name: str) -> int:
        port = free_port()
        daphne = str(Path(sys.executable).with_name("daphne"))
        self.start(
            name,
            [
                daphne,
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "--websocket_timeout",
                "-1",
                "durak_site.asgi:application",
            ],
        )
        wait_for_port(port)
        return port

    def scheduler(self, name: str, **env: str) -> None:
        self.start(name, [sys.executable, "manage.py", "run_scheduler"], **env)

    def wait_for_output(self, name: str, text: str, seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if text in (self.logs / f"{name}.out").read_text():
                return
            if self.running[name].poll() is not None:
                raise AssertionError(f"{name} exited: {(self.logs / f'{name}.log').read_text()}")
            time.sleep(0.1)
        raise AssertionError(f"{name} did not print {text!r}")

    def stop(self, name: str) -> None:
        """Ask a process to end (SIGTERM), as a deployment would."""
        process = self.running.pop(name)
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
            raise AssertionError(f"{name} did not end on SIGTERM") from None

    def pause(self, name: str) -> None:
        """Freeze a process (SIGSTOP), as a machine that stops giving it time would."""
        self.running[name].send_signal(signal.SIGSTOP)

    def resume(self, name: str) -> None:
        self.running[name].send_signal(signal.SIGCONT)

    def kill(self, name: str) -> None:
        process = self.running.pop(name)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def stop_all(self) -> None:
        for name in list(self.running):
            self.resume(name)
            self.kill(name)


def wait_for_port(port: int, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"no server on port {port}")


class OwnRedis:
    """A redis-server on a free port that saves nothing."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port)

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)
