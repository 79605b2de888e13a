"""The live path under load, from outside, with real sockets, against the bare stack.

Run: .venv/bin/python benchmarks/load.py --mode embedded|scale-out --tables N --seconds T
         [--bots easy,strong,easy] [--smoke]
     .venv/bin/python benchmarks/load.py --sweep 25,50,100 [--repeat 3] ...   (a run at each count)

It starts the site on free loopback ports (embedded: one Daphne with the embedded
scheduler on a throwaway SQLite file; scale-out: two Daphne processes and `--schedulers`
`run_scheduler` processes, two by default, on its own PostgreSQL database and Redis),
opens N four-seat tables of one person and three bots (of the `--bots` levels, easy by
default), and connects four sockets to each table: the person's, who plays a legal move as
soon as one is possible, and three spectators (some of whom reconnect during the run). It
plays T seconds, then runs the bare Channels stack (`bare_stack.py`: no database, no game,
one 1.5 KB frame per event fanned out to a group of four sockets) at the same event rate
and table count, and prints a table and, as its last line, one JSON object.

Latency is an action's commit (logged by the server, `games/deadlines/timing.py`) to its frame at
the last of the table's sockets; the user's latency is a move leaving the person's socket
to that socket showing a later version (`Answers`); lateness is a deadline to the
scheduler acting on it. CPU and memory are read from /proc for every server process, and
the machine's CPU from /proc/stat less this client's own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PYTHON = sys.executable
DAPHNE = str(Path(sys.executable).with_name("daphne"))
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
CONNECTS_AT_ONCE = 20
SECRET = "load-benchmark-secret-key-never-used-anywhere-else-0123456789"

VERSION = re.compile(r'data-version="(\d+)"')
GAME_ID = re.compile(r'data-game-id="(\d+)"')
SENT = re.compile(r'data-sent="([\d.]+)"')
HAND_CARD = re.compile(r'<button\b[^>]*\bclass="hand-card\b[^>]*>')
LEFT_HAND = re.compile(r'<div id="hand-(\w+)" hx-swap-oob="delete">')
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
BUTTON = re.compile(r'<button[^>]*data-action="(take|pass|transfer|play-again)"[^>]*>')
CARDS = re.compile(r'data-cards="([^"]*)"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# ---------------------------------------------------------------- processes


class Processes:
    """Every process the benchmark starts, each in its own session, all killed at the end."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.running: dict[str, subprocess.Popen[bytes]] = {}
        self.commands: dict[str, tuple[list[str], dict[str, str]]] = {}

    def start(self, name: str, args: list[str], env: dict[str, str]) -> None:
        self.commands[name] = (args, env)
        self.running[name] = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=(self.logs / f"{name}.out").open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self, name: str) -> None:
        """kill -9, as a crash would."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.running[name].pid, signal.SIGKILL)
        self.running[name].wait(timeout=10)

    def again(self, name: str, port: int | None = None) -> None:
        """Start a killed process again as it was started (on its port, if it serves one)."""
        self.start(name, *self.commands[name])
        if port is not None:
            wait_for_port(port, self.running[name], self.logs / f"{name}.out")

    def daphne(self, name: str, application: str, env: dict[str, str]) -> int:
        port = free_port()
        args = [DAPHNE, "-b", "127.0.0.1", "-p", str(port), "--websocket_timeout", "-1"]
        self.start(name, [*args, application], env)
        wait_for_port(port, self.running[name], self.logs / f"{name}.out")
        return port

    def cpu_seconds(self) -> float:
        total = 0
        for process in self.running.values():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
        return total / CLOCK_TICKS

    def peak_rss_mb(self) -> float:
        peak = 0
        for process in self.running.values():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
        return peak / 1024

    def stop_all(self) -> None:
        for process in self.running.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.running.values():
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        self.running.clear()


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"a server exited at start:\n{log.read_text()[-2000:]}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"no server on port {port}")


# ---------------------------------------------------------------- the machine's CPU


@dataclass(frozen=True)
class CpuSample:
    """Clock ticks so far: the whole machine's busy time, and this client's own."""

    machine: int
    client: int


def busy_ticks(proc_stat: str) -> int:
    """Every CPU's time but idle and iowait, from /proc/stat's first line (user, nice,
    system, idle, iowait, irq, softirq, steal, ...; guest time is already in user)."""
    name, *fields = proc_stat.split("\n", 1)[0].split()
    if name != "cpu":
        raise ValueError(f"not the first line of /proc/stat: {name!r}")
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return user + nice + system + irq + softirq + steal


def own_ticks(proc_self_stat: str) -> int:
    """A process's user and system time and its waited-for children's, from /proc/<pid>/stat."""
    fields = proc_self_stat.rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15])


def sample_cpu() -> CpuSample:
    return CpuSample(
        machine=busy_ticks(Path("/proc/stat").read_text()),
        client=own_ticks(Path("/proc/self/stat").read_text()),
    )


def machine_cpu_seconds(before: CpuSample, after: CpuSample) -> float:
    """The CPU every process on the machine spent between two samples, less this client's."""
    spent = (after.machine - before.machine) - (after.client - before.client)
    return max(0, spent) / CLOCK_TICKS


# ---------------------------------------------------------------- the site's data


@dataclass
class Site:
    env: dict[str, str]
    ports: list[int]
    tables: list[int]
    cookies: list[str]
    timing_logs: list[Path]


def site_environment(mode: str, work: Path, database_url: str, redis_url: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "DURAK_TIMING_LOG")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="durak_site.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_SECURE_HTTPS="0",
        DJANGO_LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
        # Every socket of the run comes from this one address.
        DURAK_ADDRESS_CONNECTS_PER_MINUTE="1000000",
    )
    if mode == "embedded":
        env["SQLITE_PATH"] = str(work / "site.sqlite3")
        env["DURAK_EMBEDDED_SCHEDULER"] = "1"
    else:
        env["DATABASE_URL"] = database_url
        env["REDIS_URL"] = redis_url
        env["REDIS_PREFIX"] = f"durak-load-{os.getpid()}"
        env["DURAK_EMBEDDED_SCHEDULER"] = "0"
    return env


def recreate_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    if not re.fullmatch(r"\w+", name):
        raise SystemExit(f"unexpected database name {name!r}")
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')


def prepare_site(
    env: dict[str, str], tables: int, bots: Sequence[str]
) -> tuple[list[int], list[str]]:
    """Migrate, then seat one person and three bots of the levels `bots` at each table
    (nothing starts yet)."""
    os.environ.update(env)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connections

    from accounts import ledger
    from accounts.models import User
    from benchmarks.fixtures import table_with_three_bots
    from games.models import Table

    call_command("migrate", verbosity=0)
    table_ids, cookies = [], []
    for index in range(tables):
        user = User(username=f"load{index}")
        user.set_unusable_password()
        user.save()
        ledger.grant_welcome(user)
        table = table_with_three_bots(user, f"Load {index}", bots)
        store = SessionStore()
        store["_auth_user_id"] = str(user.pk)
        store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        store["_auth_user_hash"] = user.get_session_auth_hash()
        store.create()
        table_ids.append(table.pk)
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={store.session_key}")
    Table.objects.filter(pk__in=table_ids).update(starts_at=None)
    connections.close_all()
    return table_ids, cookies


def arm_tables(table_ids: list[int], spread: float) -> float:
    """Every table starts within `spread` seconds from now, in a steady stream."""
    from django.db import connections

    from games import clock
    from games.models import Table

    begin = clock.now() + 0.5
    for index, table_id in enumerate(table_ids):
        at = begin + spread * index / max(1, len(table_ids))
        Table.objects.filter(pk=table_id).update(starts_at=clock.to_datetime(at))
    connections.close_all()
    return begin


def audit_ledger(env: dict[str, str]) -> bool:
    done = subprocess.run(
        [PYTHON, "manage.py", "audit_ledger"], cwd=ROOT, env=env, capture_output=True
    )
    return done.returncode == 0


def start_site(
    mode: str, processes: Processes, env: dict[str, str], work: Path, schedulers: int
) -> Site:
    logs = []
    ports = []
    names = ["daphne"] if mode == "embedded" else ["daphne-a", "daphne-b"]
    for name in names:
        log = work / f"timing-{name}.log"
        logs.append(log)
        ports.append(
            processes.daphne(
                name, "durak_site.asgi:application", {**env, "DURAK_TIMING_LOG": str(log)}
            )
        )
    for index in range(schedulers if mode == "scale-out" else 0):
        log = work / f"timing-scheduler-{index}.log"
        logs.append(log)
        processes.start(
            f"scheduler-{index}",
            [PYTHON, "manage.py", "run_scheduler"],
            {**env, "DURAK_TIMING_LOG": str(log)},
        )
    return Site(env=env, ports=ports, tables=[], cookies=[], timing_logs=logs)


def read_timing(
    logs: list[Path],
) -> tuple[dict[tuple[int, int], float], list[tuple[str, float, float]]]:
    commits: dict[tuple[int, int], float] = {}
    late: list[tuple[str, float, float]] = []
    for log in logs:
        if not log.exists():
            continue
        for line in log.read_text().splitlines():
            parts = line.split()
            if parts[:1] == ["commit"]:
                commits[(int(parts[1]), int(parts[2]))] = float(parts[3])
            elif parts[:1] == ["late"]:
                late.append((parts[1], float(parts[3]), float(parts[4])))
    return commits, late


# ---------------------------------------------------------------- sockets


@dataclass
class Connection:
    """One socket's life: when it opened and what arrived, keyed by (game, version)."""

    table: int
    role: str
    opened_at: float = 0.0
    handshake_ms: float | None = None
    snapshot_ms: float | None = None
    closed_at: float | None = None
    arrivals: dict[tuple[int, int], float] = field(default_factory=dict)
    bytes_by_action: dict[tuple[int, int], int] = field(default_factory=lambda: defaultdict(int))
    sent_at: dict[tuple[int, int], float] = field(default_factory=dict)
    whole: set[tuple[int, int]] = field(default_factory=set)
    """The versions that came as the whole picture."""
    failed: str = ""
    leave: bool = False
    sock: Any = field(default=None, repr=False)
    """The open socket, for closing it when the socket is to leave."""
    answers: Answers | None = None
    """The person's socket: how long each of its moves waited for a later version."""

    def listened_at(self, moment: float) -> bool:
        """Whether the socket had its snapshot by `moment`: a version committed before a
        socket joined reaches it in the snapshot, which is the snapshot's time, not the
        version's."""
        if self.snapshot_ms is None:
            return False
        return self.opened_at + self.snapshot_ms / 1000 <= moment


@dataclass
class Move:
    """A move the person sent: on which game and version, naming which card, and when."""

    decided_on: tuple[int, int]
    card: str | None
    sent_at: float
    """On the client's monotonic clock."""
    sent_wall: float
    """On the wall clock, to place it in the measured window."""
    answered_at: float | None = None


class Answers:
    """What a player feels: from the moment the person's socket sends a move to the moment
    it receives a frame of a later version than the one the move was decided on (or the
    waiting room, when the game is over), on the client's monotonic clock.

    Refused moves are left out. The server takes a socket's messages one at a time, so a
    refusal belongs to the oldest move still open. A move that names a card stays open
    after its answer until the card has left the hand (a bot's move can bring the later
    version before the server refuses the person's); a take or a pass is closed by its
    answer."""

    def __init__(self) -> None:
        self.open: list[Move] = []
        self.waits: list[tuple[float, float]] = []
        """(sent on the wall clock, ms waited) of each answered move, in order."""
        self.refused = 0

    def sent(self, decided_on: tuple[int, int], card: str | None, at: float, wall: float) -> None:
        self.open.append(Move(decided_on, card, at, wall))

    def shown(
        self, frame: tuple[int, int] | None, over: bool, hand: Collection[str], at: float
    ) -> None:
        """A message came at `at`: of `frame` (its game and version, if it had one), or the
        waiting room (`over`); `hand` is the hand the page shows once it is read."""
        still = []
        for move in self.open:
            if move.answered_at is None and (
                over or (frame is not None and frame > move.decided_on)
            ):
                move.answered_at = at
            if move.answered_at is not None and (over or move.card not in hand):
                self.waits.append((move.sent_wall, (move.answered_at - move.sent_at) * 1000))
            else:
                still.append(move)
        self.open = still

    def refusal(self) -> None:
        if self.open:
            self.open.pop(0)
            self.refused += 1


class Player:
    """The person at a table: plays a legal move on each new screen that allows one. Like
    the page, they pass over a frame older than the one they have seen (frames from two
    servers can overtake each other)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.version: int | None = None
        self.game: int | None = None
        """The game of `version`, the one the next move is decided on."""
        self.acted_on: int | None = None
        self.newest: tuple[int, int] = (0, 0)
        self.candidates: list[dict[str, Any]] = []
        self.refusals = 0
        self.hand: dict[str, dict[str, str]] = {}
        """The cards of the hand the page shows, by card: each one's button's attributes."""
        self.buttons = ""
        self.redrawn = False
        """Whether the last message was the whole picture."""

    def read(self, html: str, frame: tuple[int, int] | None) -> dict[str, Any] | None:
        """The move for a frame; `frame` is the game and version it shows, if any. A frame
        is the whole picture or the pieces that changed: the page keeps the hand and the
        buttons it last got."""
        self.redrawn = '<section id="game"' in html
        if frame is not None:
            if frame < self.newest:
                return None
            self.newest = frame
        if 'data-action="play-again"' in html and self.acted_on != -1:
            self.acted_on = -1
            return {"action": "play-again"}
        self.keep_hand(html)
        if 'id="actions"' in html:
            self.buttons = html
        if frame is None or not self.hand or frame[1] == self.acted_on:
            return None
        self.game, version = frame
        self.version = version
        self.candidates = self.choices(version)
        return self.next_choice()

    def keep_hand(self, html: str) -> None:
        """The hand as the page keeps it: drawn whole, or card by card (a card that left,
        one whose use changed, one that came)."""
        if 'id="hand"' in html:
            self.hand = {}
        for code in LEFT_HAND.findall(html):
            self.hand.pop(code, None)
        for tag in HAND_CARD.finditer(html):
            card = dict(ATTRIBUTE.findall(tag.group(0)))
            self.hand[card["data-card"]] = card

    def next_choice(self) -> dict[str, Any] | None:
        if not self.candidates:
            return None
        self.acted_on = self.version
        return self.candidates.pop(0)

    def choices(self, version: int) -> list[dict[str, Any]]:
        plays: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for card in self.hand.values():
            action = card.get("data-action", "")
            if action == "defend":
                target = card["data-targets"].split()[0]
                plays[action].append(
                    {"action": action, "card": card["data-card"], "target": target}
                )
            elif action:
                plays[action].append({"action": action, "card": card["data-card"]})
        buttons = {}
        for tag in BUTTON.finditer(self.buttons):
            if " disabled" not in tag.group(0):
                buttons[tag.group(1)] = tag.group(0)
        ordered = plays["defend"][:1] + plays["lead"][:1]
        if "pass" in buttons and self.rng.random() < 0.7:
            ordered.append({"action": "pass"})
        ordered += plays["throw-in"][:1]
        if "pass" in buttons:
            ordered.append({"action": "pass"})
        if "transfer" in buttons:
            cards = CARDS.search(buttons["transfer"])
            if cards and cards.group(1):
                ordered.append({"action": "transfer", "card": cards.group(1).split()[0]})
        if "take" in buttons:
            ordered.append({"action": "take"})
        for choice in ordered:
            choice["version"] = version
        return ordered


class Crowd:
    """Every socket of the run."""

    def __init__(self, seconds: float) -> None:
        self.connections: list[Connection] = []
        self.errors: list[str] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
        self.stop = asyncio.Event()
        self.closing: set[asyncio.Task[None]] = set()
        self.window: tuple[float, float] = (0.0, 0.0)
        self.seconds = seconds
        self.refusals = 0
        self.overtaken = 0
        self.refused: Counter[str] = Counter()
        self.last_arrival = 0.0
        self.cpu = 0.0
        """Seconds of CPU of the server processes over the window."""
        self.machine_cpu = 0.0
        """Seconds of CPU of the whole machine over the window, less this client's."""
        self.reconnecting = False
        """In a fault drill a socket that closes connects again, as the page does."""
        self.reconnects = 0

    async def drain(self, quiet: float = 1.5, longest: float = 15.0) -> None:
        """Wait for the frames still on their way: until none came for `quiet` seconds."""
        give_up = time.time() + longest
        while time.time() < give_up and time.time() - self.last_arrival < quiet:
            await asyncio.sleep(0.2)

    def let_go(self, record: Connection) -> None:
        """The socket leaves: it is closed, which ends its listening."""
        record.leave = True
        if record.sock is not None:
            task = asyncio.get_running_loop().create_task(record.sock.close())
            self.closing.add(task)
            task.add_done_callback(self.closing.discard)

    async def finish(self) -> None:
        """Every socket closes and its task ends."""
        self.stop.set()
        for record in self.connections:
            self.let_go(record)
        await asyncio.gather(*list(self.tasks), *list(self.closing), return_exceptions=True)

    def open(
        self, url: str, record: Connection, headers: dict[str, str], player: Player | None
    ) -> None:
        task = asyncio.get_running_loop().create_task(self.run(url, record, headers, player))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def run(
        self, url: str, record: Connection, headers: dict[str, str], player: Player | None
    ) -> None:
        self.connections.append(record)
        try:
            async with self.gate:
                record.opened_at = time.time()
                sock = await websockets.connect(
                    url,
                    additional_headers=headers,
                    compression=None,
                    max_size=None,
                    ping_interval=None,
                    open_timeout=60,
                )
                record.handshake_ms = (time.time() - record.opened_at) * 1000
                record.sock = sock
                if record.leave or self.stop.is_set():
                    await sock.close()
            async with sock:
                await self.listen(sock, record, player)
        except Exception as problem:
            if self.reconnecting and not self.stop.is_set():
                record.leave = True
                self.reconnects += 1
                await asyncio.sleep(0.5)
                self.open(url, Connection(table=record.table, role=record.role), headers, player)
            elif not self.stop.is_set():
                record.failed = f"{record.role} socket at table {record.table}: {problem!r}"
                self.errors.append(record.failed)
        finally:
            record.closed_at = time.time()

    async def listen(self, sock: Any, record: Connection, player: Player | None) -> None:
        game: int | None = None
        current: tuple[int, int] | None = None
        newest: tuple[int, int] = (0, 0)
        first = True
        async for html in sock:
            felt = time.monotonic()
            arrived = time.time()
            self.last_arrival = arrived
            if first:
                record.snapshot_ms = (arrived - record.opened_at) * 1000
            found = GAME_ID.search(html)
            if found:
                game = int(found.group(1))
            version = VERSION.search(html)
            if version and game is not None:
                current = (game, int(version.group(1)))
                record.arrivals.setdefault(current, arrived)
                if '<section id="game"' in html:
                    record.whole.add(current)
                self.overtaken += current < newest
                newest = max(newest, current)
                sent = SENT.search(html)
                if sent:
                    record.sent_at[current] = float(sent.group(1))
            if current is not None and not first:
                record.bytes_by_action[current] += len(html.encode())
            first = False
            if player is not None:
                frame = current if version and current is not None else None
                await self.play(sock, html, frame, player, record.answers, felt)
            if record.leave:
                return
        if not record.leave and not self.stop.is_set():
            raise ConnectionError("the server closed the socket")

    async def play(
        self,
        sock: Any,
        html: str,
        frame: tuple[int, int] | None,
        player: Player,
        answers: Answers | None,
        felt: float,
    ) -> None:
        redrawn = player.redrawn
        move = player.read(html, frame)
        if answers is not None:
            answers.shown(frame, 'data-phase="waiting"' in html, player.hand, felt)
        if move is None and 'id="notice"' in html and "error" in html:
            self.refusals += 1
            self.refused[re.sub(r"<[^>]+>", "", html).strip()[:70]] += 1
            if answers is not None:
                answers.refusal()
            # A move naming a version the socket had not shown comes back with the whole
            # picture first, and the person has played on that already.
            if not redrawn:
                move = player.next_choice()
        if move is not None:
            if answers is not None and "version" in move and player.game is not None:
                decided_on = (player.game, int(move["version"]))
                answers.sent(decided_on, move.get("card"), time.monotonic(), time.time())
            await sock.send(json.dumps(move))


async def churn(
    crowd: Crowd, spectators: list[tuple[str, Connection, dict[str, str]]], rate: int
) -> None:
    """Spectators leave and come back during the run: handshakes and snapshots under load."""
    rng = random.Random(11)
    while not crowd.stop.is_set():
        await asyncio.sleep(1.0)
        for _ in range(rate):
            index = rng.randrange(len(spectators))
            url, old, headers = spectators[index]
            crowd.let_go(old)
            fresh = Connection(table=old.table, role="spectator")
            spectators[index] = (url, fresh, headers)
            crowd.open(url, fresh, headers, None)


async def drive_site(
    site: Site,
    seconds: float,
    churn_rate: int,
    faults: str | None = None,
    drill: list[tuple[str, float]] | None = None,
) -> Crowd:
    crowd = Crowd(seconds)
    crowd.reconnecting = drill is not None
    spectators = []
    for index, (table, cookie) in enumerate(zip(site.tables, site.cookies, strict=True)):
        for place in range(4):
            port = site.ports[(index + place) % len(site.ports)]
            headers = {"Origin": f"http://127.0.0.1:{port}", "Cookie": "django_language=ru"}
            url = f"ws://127.0.0.1:{port}/ws/table/{table}/"
            if place == 0:
                headers["Cookie"] = f"{cookie}; django_language=ru"
                crowd.open(
                    url,
                    Connection(table=table, role="player", answers=Answers()),
                    headers,
                    Player(random.Random(index)),
                )
            else:
                record = Connection(table=table, role="spectator")
                spectators.append((url, record, headers))
                crowd.open(url, record, headers, None)
    await wait_connected(crowd, 4 * len(site.tables))
    begin = await asyncio.to_thread(arm_tables, site.tables, min(3.0, 0.02 * len(site.tables)))
    await asyncio.sleep(max(0.0, begin - time.time()))
    cpu_before = await asyncio.to_thread(site_processes.cpu_seconds)
    machine_before = sample_cpu()
    mover = asyncio.create_task(churn(crowd, spectators, churn_rate)) if churn_rate else None
    striking = None
    if faults and drill is not None:
        striking = asyncio.create_task(fault_drill(site, begin, seconds, faults, drill))
    await asyncio.sleep(seconds)
    if striking is not None:
        await striking
    machine_after = sample_cpu()
    cpu_after = await asyncio.to_thread(site_processes.cpu_seconds)
    crowd.cpu = cpu_after - cpu_before
    crowd.machine_cpu = machine_cpu_seconds(machine_before, machine_after)
    crowd.window = (begin, begin + seconds)
    if mover is not None:
        mover.cancel()
    await crowd.drain()
    await crowd.finish()
    return crowd


async def wait_connected(crowd: Crowd, count: int) -> None:
    deadline = time.monotonic() + 120 + count * 0.2
    while time.monotonic() < deadline:
        done = sum(1 for c in crowd.connections if c.snapshot_ms is not None or c.failed)
        if done >= count:
            return
        await asyncio.sleep(0.1)
    crowd.errors.append(f"only {done} of {count} sockets had their snapshot")


site_processes: Processes


# ---------------------------------------------------------------- the bare stack


async def drive_bare(ports: list[int], tables: int, rate: float, seconds: float) -> Crowd:
    crowd = Crowd(seconds)
    for table in range(tables):
        for place in range(4):
            port = ports[(table + place) % len(ports)]
            crowd.open(
                f"ws://127.0.0.1:{port}/ws/bare/{table}/",
                Connection(table=table, role="bare"),
                {"Origin": f"http://127.0.0.1:{port}"},
                None,
            )
    while sum(1 for c in crowd.connections if c.handshake_ms is not None or c.failed) < 4 * tables:
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.3)
    begin = time.time()
    cpu_before = await asyncio.to_thread(site_processes.cpu_seconds)
    machine_before = sample_cpu()
    async with websockets.connect(f"ws://127.0.0.1:{ports[0]}/ws/bare-control/") as control:
        await control.send(json.dumps({"tables": tables, "rate": rate, "seconds": seconds}))
        await asyncio.wait_for(control.recv(), timeout=seconds * 3 + 30)
    crowd.machine_cpu = machine_cpu_seconds(machine_before, sample_cpu())
    crowd.cpu = await asyncio.to_thread(site_processes.cpu_seconds) - cpu_before
    crowd.window = (begin, begin + seconds)
    await crowd.drain()
    await crowd.finish()
    return crowd


# ---------------------------------------------------------------- figures


@dataclass
class Figures:
    actions: int = 0
    actions_per_s: float = 0.0
    latencies: list[float] = field(default_factory=list)
    user_latencies: list[float] = field(default_factory=list)
    """Each of the person's moves sent in the window: ms to a later version on its socket."""
    dropped: int = 0
    superseded: int = 0
    in_flight: int = 0
    bytes: list[int] = field(default_factory=list)
    handshakes: list[float] = field(default_factory=list)
    snapshots: list[float] = field(default_factory=list)
    max_idle_s: float = 0.0
    tables_playing: int = 0


def figures(crowd: Crowd, commits: dict[tuple[int, int], float], tables: int) -> Figures:
    """Latency to the last socket of a table, drops, bytes; over actions in the window."""
    begin, end = crowd.window
    seen: dict[int, dict[tuple[int, int], list[Connection]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for record in crowd.connections:
        for key in record.arrivals:
            seen[record.table][key].append(record)
    if not commits:
        commits = {
            key: sent for record in crowd.connections for key, sent in record.sent_at.items()
        }
    table_of_game = {key[0]: table for table, keys in seen.items() for key in keys}
    result = Figures()
    by_game: dict[int, list[int]] = defaultdict(list)
    for (game, version), at in commits.items():
        if begin <= at <= end:
            by_game[game].append(version)
    result.actions = sum(len(versions) for versions in by_game.values())
    result.actions_per_s = result.actions / max(0.001, end - begin)
    missed = count_missing(crowd, by_game, result)
    for game, versions in by_game.items():
        table = table_of_game.get(game)
        for version in versions:
            key = (game, version)
            receivers = seen[table].get(key, []) if table is not None else []
            receivers = [record for record in receivers if record.listened_at(commits[key])]
            if receivers and key not in missed:
                latest = max(record.arrivals[key] for record in receivers)
                result.latencies.append((latest - commits[key]) * 1000)
    for record in crowd.connections:
        if record.answers is not None:
            result.user_latencies += [
                waited for sent, waited in record.answers.waits if begin <= sent <= end
            ]
        for key, size in record.bytes_by_action.items():
            if key in commits and begin <= commits[key] <= end:
                result.bytes.append(size)
        if record.handshake_ms is not None and record.opened_at >= begin:
            result.handshakes.append(record.handshake_ms)
        if record.snapshot_ms is not None and record.opened_at >= begin:
            result.snapshots.append(record.snapshot_ms)
    if not result.handshakes:
        result.handshakes = [r.handshake_ms for r in crowd.connections if r.handshake_ms]
        result.snapshots = [r.snapshot_ms for r in crowd.connections if r.snapshot_ms]
    moments: dict[int, list[float]] = defaultdict(lambda: [begin])
    for (game, _version), at in commits.items():
        if game in table_of_game and begin <= at <= end:
            moments[table_of_game[game]].append(at)
    result.tables_playing = len(moments)
    gaps = [
        max(b - a for a, b in zip(sorted(m), [*sorted(m)[1:], end], strict=True))
        for m in moments.values()
    ]
    result.max_idle_s = max(gaps, default=end - begin) if len(moments) == tables else end - begin
    return result


def count_missing(
    crowd: Crowd, by_game: dict[int, list[int]], result: Figures
) -> set[tuple[int, int]]:
    """A socket must see every version of a game after the first it saw. One it skipped
    was dropped, unless the next one it got was the whole picture (the server sends that
    when a page misses the version a frame builds on: it was superseded); one that had
    not come when the run ended was still in flight. A game's last commit shows the
    waiting room, which has no version."""
    missed: set[tuple[int, int]] = set()
    for record in crowd.connections:
        seen: dict[int, set[int]] = defaultdict(set)
        for game, version in record.arrivals:
            seen[game].add(version)
        last_game = max(record.arrivals, key=record.arrivals.__getitem__, default=(None, 0))[0]
        for game, versions in seen.items():
            low, high = min(versions), max(versions)
            final = max(by_game.get(game, [0]))
            for version in by_game.get(game, []):
                if version <= low or version in versions:
                    continue
                if version == final and game != last_game:
                    continue
                later = min((v for v in versions if v > version), default=None)
                if later is not None and (game, later) in record.whole:
                    result.superseded += 1
                elif version < high or game != last_game:
                    result.dropped += 1
                elif not record.leave:
                    result.in_flight += 1
                missed.add((game, version))
    return missed


# ---------------------------------------------------------------- the run


def run_site(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    global site_processes
    site_processes = Processes(work)
    drill: list[tuple[str, float]] | None = [] if args.drill else None
    try:
        if args.drill:
            args.redis_url = own_redis(site_processes)
        env = site_environment(args.mode, work, args.database_url, args.redis_url)
        if args.mode == "scale-out":
            recreate_database(args.database_url)
        tables, cookies = prepare_site(env, args.tables, args.bots)
        site = start_site(args.mode, site_processes, env, work, args.schedulers)
        site.tables, site.cookies = tables, cookies
        churn_rate = max(1, args.tables // 20)
        crowd = asyncio.run(drive_site(site, args.seconds, churn_rate, args.drill, drill))
        rss = site_processes.peak_rss_mb()
    finally:
        site_processes.stop_all()
    ledger_clean = audit_ledger(env)
    commits, late = read_timing(site.timing_logs)
    begin, end = crowd.window
    measured = figures(crowd, commits, args.tables)
    healing = {} if drill is None else healed(drill, commits, crowd, end)
    lateness: dict[str, list[float]] = defaultdict(list)
    for kind, due, fired in late:
        if begin <= fired <= end:
            lateness[kind].append((fired - due) * 1000)
    if args.mode == "scale-out" and not args.drill:
        forget_redis_keys(args.redis_url, env["REDIS_PREFIX"])
    return {
        "heal_s": healing,
        "fired_twice": fired_twice(site.timing_logs),
        "reconnects": crowd.reconnects,
        "figures": measured,
        "cpu": crowd.cpu,
        "machine_cpu": crowd.machine_cpu,
        "rss_mb": rss,
        "lateness": [ms for by_kind in lateness.values() for ms in by_kind],
        "game_lateness": lateness["game"],
        "start_lateness": lateness["start"],
        "standup_lateness": lateness["standup"],
        "errors": crowd.errors,
        "refusals": crowd.refusals,
        "overtaken": crowd.overtaken,
        "refused": crowd.refused.most_common(3),
        "ledger_clean": ledger_clean,
    }


def run_bare(args: argparse.Namespace, work: Path, rate: float) -> dict[str, Any]:
    global site_processes
    env = site_environment(args.mode, work, args.database_url, args.redis_url)
    env.pop("SQLITE_PATH", None)
    site_processes = Processes(work)
    try:
        names = ["bare"] if args.mode == "embedded" else ["bare-a", "bare-b"]
        ports = [
            site_processes.daphne(name, "benchmarks.bare_stack:application", env) for name in names
        ]
        crowd = asyncio.run(drive_bare(ports, args.tables, max(rate, 0.1), args.seconds))
        rss = site_processes.peak_rss_mb()
    finally:
        site_processes.stop_all()
    if args.mode == "scale-out":
        forget_redis_keys(args.redis_url, env["REDIS_PREFIX"])
    measured = figures(crowd, {}, args.tables)
    return {
        "figures": measured,
        "cpu": crowd.cpu,
        "machine_cpu": crowd.machine_cpu,
        "rss_mb": rss,
        "errors": crowd.errors,
    }


# ---------------------------------------------------------------- the fault drill

DRILL = (("redis", 0.25), ("daphne", 0.45), ("scheduler", 0.65))
"""Each fault and when it strikes, as a fraction of the run."""


def own_redis(processes: Processes) -> str:
    """A Redis of the drill's own, which it may restart empty."""
    port = free_port()
    args = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    processes.start("redis", [*args, "--appendonly", "no"], dict(os.environ))
    wait_for_port(port, processes.running["redis"], processes.logs / "redis.out")
    return f"redis://127.0.0.1:{port}/0"


async def fault_drill(
    site: Site, begin: float, seconds: float, faults: str, struck: list[tuple[str, float]]
) -> None:
    """Strike each of ``faults`` at its moment (Redis restarted empty; a Daphne or a scheduler
    killed with kill -9 and started again), noting when each struck."""
    redis_port = int(site_processes.commands["redis"][0][2])
    targets = {
        "redis": ("redis", redis_port),
        "daphne": ("daphne-a", site.ports[0]),
        "scheduler": ("scheduler-0", None),
    }
    for fault, fraction in [(fault, at) for fault, at in DRILL if fault in faults.split(",")]:
        await asyncio.sleep(max(0.0, begin + fraction * seconds - time.time()))
        name, port = targets[fault]
        struck.append((fault, time.time()))
        await asyncio.to_thread(site_processes.kill, name)
        await asyncio.to_thread(site_processes.again, name, port)


def healed(
    struck: list[tuple[str, float]],
    commits: dict[tuple[int, int], float],
    crowd: Crowd,
    end: float,
) -> dict[str, float]:
    """Seconds from each fault until every table had committed again."""
    table_of_game = {
        key[0]: record.table for record in crowd.connections for key in record.arrivals
    }
    moments: dict[int, list[float]] = defaultdict(list)
    for (game, _version), at in commits.items():
        if game in table_of_game:
            moments[table_of_game[game]].append(at)
    healing = {}
    for fault, at in struck:
        firsts = [min((m for m in ms if m > at), default=end) for ms in moments.values()]
        healing[fault] = round(max(firsts, default=end) - at, 2)
    return healing


def fired_twice(logs: list[Path]) -> int:
    """Deadlines carried out more than once: one kind, one id, one deadline, two firings."""
    firings: Counter[tuple[str, ...]] = Counter()
    for log in logs:
        if log.exists():
            for line in log.read_text().splitlines():
                parts = line.split()
                if parts[:1] == ["late"]:
                    firings[tuple(parts[1:4])] += 1
    return sum(count - 1 for count in firings.values())


def forget_redis_keys(url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        client.delete(key)
    client.close()


def summary(args: argparse.Namespace, site: dict[str, Any], bare: dict[str, Any]) -> dict[str, Any]:
    s: Figures = site["figures"]
    b: Figures = bare["figures"]
    return {
        "mode": args.mode,
        "schedulers": args.schedulers if args.mode == "scale-out" else 0,
        "tables": args.tables,
        "seconds": args.seconds,
        "bots": list(args.bots),
        "actions_per_s": round(s.actions_per_s, 1),
        "p50_ms": round(percentile(s.latencies, 0.5), 1),
        "p99_ms": round(percentile(s.latencies, 0.99), 1),
        "user_p50_ms": round(percentile(s.user_latencies, 0.5), 1),
        "user_p99_ms": round(percentile(s.user_latencies, 0.99), 1),
        "bytes_per_action_per_client": int(statistics.median(s.bytes)) if s.bytes else 0,
        "bytes_p95": int(percentile([float(x) for x in s.bytes], 0.95)),
        "cpu_ms_per_action": round(site["cpu"] * 1000 / max(1, s.actions), 2),
        "machine_cpu_ms_per_action": round(site["machine_cpu"] * 1000 / max(1, s.actions), 2),
        "bare_actions_per_s": round(b.actions_per_s, 1),
        "bare_p50_ms": round(percentile(b.latencies, 0.5), 1),
        "bare_p99_ms": round(percentile(b.latencies, 0.99), 1),
        "bare_cpu_ms_per_action": round(bare["cpu"] * 1000 / max(1, b.actions), 2),
        "bare_machine_cpu_ms_per_action": round(bare["machine_cpu"] * 1000 / max(1, b.actions), 2),
        "connect_p99_ms": round(percentile(s.handshakes, 0.99), 1),
        "snapshot_p99_ms": round(percentile(s.snapshots, 0.99), 1),
        "lateness_p50_ms": round(percentile(site["lateness"], 0.5), 1),
        "lateness_p99_ms": round(percentile(site["lateness"], 0.99), 1),
        "lateness_max_ms": round(max(site["lateness"], default=0.0), 1),
        "game_lateness_p99_ms": round(percentile(site["game_lateness"], 0.99), 1),
        "game_lateness_max_ms": round(max(site["game_lateness"], default=0.0), 1),
        "start_lateness_max_ms": round(max(site["start_lateness"], default=0.0), 1),
        "standup_lateness_max_ms": round(max(site["standup_lateness"], default=0.0), 1),
        "rss_mb": round(max(site["rss_mb"], bare["rss_mb"]), 1),
        "errors": len(site["errors"]) + len(bare["errors"]),
        "dropped": s.dropped,
        "superseded": s.superseded,
        "in_flight": s.in_flight,
        "bare_dropped": b.dropped,
        "refusals": site["refusals"],
        "overtaken": site["overtaken"],
        "tables_playing": s.tables_playing,
        "max_idle_s": round(s.max_idle_s, 2),
        "ledger_clean": site["ledger_clean"],
        "heal_s": site["heal_s"],
        "fired_twice": site["fired_twice"],
        "reconnects": site["reconnects"],
        "client_cpu_s": round(resource.getrusage(resource.RUSAGE_SELF).ru_utime, 1),
    }


def print_table(result: dict[str, Any], errors: list[str], refused: list[Any]) -> None:
    rows = [
        ("setup", f"site, {result['mode']}", "bare stack, same rate"),
        ("tables", result["tables"], result["tables"]),
        ("bots of each table", ",".join(result["bots"]), ""),
        ("actions/s", result["actions_per_s"], result["bare_actions_per_s"]),
        (
            "p50 / p99 ms (commit -> every socket)",
            f"{result['p50_ms']} / {result['p99_ms']}",
            f"{result['bare_p50_ms']} / {result['bare_p99_ms']}",
        ),
        (
            "user p50 / p99 ms (move -> a later version)",
            f"{result['user_p50_ms']} / {result['user_p99_ms']}",
            "",
        ),
        ("CPU ms per action", result["cpu_ms_per_action"], result["bare_cpu_ms_per_action"]),
        (
            "machine CPU ms per action (less the client)",
            result["machine_cpu_ms_per_action"],
            result["bare_machine_cpu_ms_per_action"],
        ),
        (
            "bytes per action per socket (median / p95)",
            f"{result['bytes_per_action_per_client']} / {result['bytes_p95']}",
            "1536",
        ),
        (
            "handshake p99 ms / snapshot p99 ms",
            f"{result['connect_p99_ms']} / {result['snapshot_p99_ms']}",
            "",
        ),
        (
            "deadline lateness p50 / p99 / max ms",
            "{lateness_p50_ms} / {lateness_p99_ms} / {lateness_max_ms}".format(**result),
            "",
        ),
        (
            "of game deadlines p99 / max; max of table starts, of stand-ups",
            "{game_lateness_p99_ms} / {game_lateness_max_ms}; {start_lateness_max_ms}, "
            "{standup_lateness_max_ms}".format(**result),
            "",
        ),
        ("dropped frames", result["dropped"], result["bare_dropped"]),
        ("versions superseded by a whole picture", result["superseded"], ""),
        ("frames still on their way at the end", result["in_flight"], ""),
        ("frames overtaken by a later version", result["overtaken"], ""),
        (
            "tables playing / longest wait of a table s",
            f"{result['tables_playing']} / {result['max_idle_s']}",
            "",
        ),
        ("errors", result["errors"], ""),
        ("largest process RSS MB", result["rss_mb"], ""),
    ]
    width = max(len(str(row[0])) for row in rows)
    for name, site, bare in rows:
        print(f"{name:<{width}}  {site!s:>22}  {bare!s:>22}")
    ratio = result["cpu_ms_per_action"] / max(0.01, result["bare_cpu_ms_per_action"])
    print(f"CPU per action: {ratio:.1f}x the bare stack's")
    for text, count in refused:
        print(f"refused {count} times: {text}")
    for error in errors[:10]:
        print("error:", error)


def healthy(result: dict[str, Any]) -> bool:
    """What the smoke run insists on: the site played, and nothing failed or went missing."""
    return (
        result["actions_per_s"] > 0
        and result["errors"] == 0
        and result["dropped"] == 0
        and result["in_flight"] == 0
        and result["ledger_clean"]
        and result["tables_playing"] == result["tables"]
    )


# ---------------------------------------------------------------- the sweep

KNEE_P99_MS = 100.0
"""The knee is the largest table count at which every table plays and the p99 (commit to
every socket) is under this."""
COLLAPSE_AT = 3
"""The collapse check looks at the first point at this many times the knee's tables."""
SWEPT_FIGURES = (
    "tables",
    "actions_per_s",
    "p99_ms",
    "user_p99_ms",
    "cpu_ms_per_action",
    "bare_cpu_ms_per_action",
    "machine_cpu_ms_per_action",
    "bare_machine_cpu_ms_per_action",
    "tables_playing",
    "game_lateness_p99_ms",
)


def server_processes(mode: str, schedulers: int) -> int:
    """The site's own processes a run starts: one Daphne embedded; two Daphne and the
    schedulers in scale-out (PostgreSQL and Redis are not counted)."""
    return 1 if mode == "embedded" else 2 + schedulers


def ratio(part: float, whole: float) -> float | None:
    return round(part / whole, 2) if whole else None


def sweep_summary(
    points: list[dict[str, Any]], server_cores: int, failed: Sequence[int] = ()
) -> dict[str, Any]:
    """The knee of a sweep (the largest table count at which every table plays with a p99
    under `KNEE_P99_MS`: a site that makes games wait holds the p99 of those it plays), its
    actions per second per server core, and whether the site collapsed at `COLLAPSE_AT`
    times the knee: that point's actions/s against the sweep's peak, its CPU per action
    against the knee's (and the bare stack's against the bare stack's at the knee: how much
    the stack itself and the machine moved between the two), and how late its games'
    deadlines fired."""
    knee = max(
        (
            point
            for point in points
            if point["p99_ms"] < KNEE_P99_MS and point["tables_playing"] == point["tables"]
        ),
        key=lambda point: point["tables"],
        default=None,
    )
    peak = max((point["actions_per_s"] for point in points), default=0.0)
    collapse = None
    if knee is not None:
        beyond = [p for p in points if p["tables"] >= COLLAPSE_AT * knee["tables"]]
        crowded = min(beyond, key=lambda point: point["tables"], default=None)
        if crowded is not None:
            collapse = {
                "tables": crowded["tables"],
                "knee_tables": knee["tables"],
                "actions_per_s_of_peak": ratio(crowded["actions_per_s"], peak),
                "cpu_per_action_of_knee": ratio(
                    crowded["cpu_ms_per_action"], knee["cpu_ms_per_action"]
                ),
                "machine_cpu_per_action_of_knee": ratio(
                    crowded["machine_cpu_ms_per_action"], knee["machine_cpu_ms_per_action"]
                ),
                "bare_cpu_per_action_of_knee": ratio(
                    crowded["bare_cpu_ms_per_action"], knee["bare_cpu_ms_per_action"]
                ),
                "game_lateness_p99_ms": crowded["game_lateness_p99_ms"],
            }
    return {
        "sweep": [point["tables"] for point in points],
        "failed": list(failed),
        "server_cores": server_cores,
        "knee_tables": None if knee is None else knee["tables"],
        "knee_actions_per_s": None if knee is None else knee["actions_per_s"],
        "knee_actions_per_s_per_server_core": (
            None if knee is None else round(knee["actions_per_s"] / server_cores, 1)
        ),
        "peak_actions_per_s": peak,
        "collapse": collapse,
        "points": [{name: point.get(name) for name in SWEPT_FIGURES} for point in points],
    }


def point_arguments(args: argparse.Namespace, tables: int) -> list[str]:
    """The options of one point of a sweep: this run's, at `tables` tables."""
    chosen = [
        *("--mode", args.mode, "--tables", str(tables), "--seconds", str(args.seconds)),
        *("--schedulers", str(args.schedulers), "--bots", ",".join(args.bots)),
        *("--database-url", args.database_url, "--redis-url", args.redis_url),
    ]
    return chosen + ["--no-bare"] * args.no_bare + ["--keep"] * args.keep


def middle_runs(points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of the runs at each table count, the one in the middle by CPU per action (the dearer
    of the two middle ones when there is an even number), in the order the counts came."""
    by_tables: dict[int, list[dict[str, Any]]] = {}
    for point in points:
        by_tables.setdefault(point["tables"], []).append(point)
    return [
        sorted(runs, key=lambda point: point["cpu_ms_per_action"])[len(runs) // 2]
        for runs in by_tables.values()
    ]


def run_sweep(args: argparse.Namespace) -> None:
    """Each table count a full run of its own, in a process of its own (the site's settings
    are read once a process), its output passed on; with `--repeat`, the whole sweep that
    many times in turn, so that a machine that is busier for a while weighs on every count
    alike. Then the summary line, of the middle run at each count (`middle_runs`), with
    every run's figures under "runs"."""
    points, failed = [], []
    for _round in range(args.repeat):
        for tables in args.sweep:
            command = [PYTHON, str(Path(__file__).resolve()), *point_arguments(args, tables)]
            last = ""
            with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True) as child:
                assert child.stdout is not None
                for line in child.stdout:
                    print(line, end="", flush=True)
                    last = line if line.strip() else last
            try:
                points.append(json.loads(last))
            except json.JSONDecodeError:
                failed.append(tables)
    cores = min(os.cpu_count() or 1, server_processes(args.mode, args.schedulers))
    result: dict[str, Any] = {"mode": args.mode, "bots": list(args.bots), "seconds": args.seconds}
    result.update(sweep_summary(middle_runs(points), cores, failed))
    if args.repeat > 1:
        result["repeat"] = args.repeat
        result["runs"] = [{name: point.get(name) for name in SWEPT_FIGURES} for point in points]
    print(
        "knee: {knee_tables} tables, {knee_actions_per_s} actions/s, "
        "{knee_actions_per_s_per_server_core} per server core of {server_cores}".format(**result)
    )
    print(json.dumps(result))


# ---------------------------------------------------------------- options

BOT_SEATS = 3


def bot_levels(text: str) -> tuple[str, ...]:
    """`--bots easy,strong,easy`: the levels of each table's three bots, in seat order."""
    from games.bots import LEVELS

    levels = tuple(level.strip() for level in text.split(","))
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot level {unknown[0]!r}: choose among {', '.join(LEVELS)}"
        )
    if len(levels) != BOT_SEATS:
        raise argparse.ArgumentTypeError(
            f"name {BOT_SEATS} levels, one for each bot of a table, not {len(levels)}"
        )
    return levels


def table_counts(text: str) -> list[int]:
    """`--sweep 25,50,100`: the table counts to run, in that order."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"name the table counts as whole numbers separated by commas, not {text!r}"
        ) from None
    if any(count < 1 for count in counts):
        raise argparse.ArgumentTypeError(f"every table count is at least 1: {text!r}")
    return counts


def options() -> argparse.ArgumentParser:
    from benchmarks.fixtures import EASY_BOTS

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--mode", choices=("embedded", "scale-out"), default="embedded")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument(
        "--bots",
        type=bot_levels,
        default=EASY_BOTS,
        help="the levels of each table's three bots, in seat order (default easy,easy,easy)",
    )
    parser.add_argument(
        "--sweep",
        type=table_counts,
        help="a full run at each of these table counts in turn (e.g. 25,50,100), "
        "then a summary line with the knee (instead of --tables)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="with --sweep: run the whole sweep this many times in turn and sum up the "
        "middle run of each table count",
    )
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--schedulers", type=int, default=2, help="scale-out: how many run_scheduler processes"
    )
    parser.add_argument("--smoke", action="store_true", help="a few tables for a few seconds")
    parser.add_argument("--no-bare", action="store_true", help="the site only (a soak)")
    parser.add_argument("--keep", action="store_true", help="keep the logs and print where")
    parser.add_argument(
        "--drill",
        nargs="?",
        const=",".join(fault for fault, _ in DRILL),
        help="scale-out, on a Redis of its own: the faults to strike during the run, of "
        "redis (restarted empty), daphne and scheduler (kill -9, then started again); all "
        "three when none is named",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_load"
        ),
        help="scale-out: a PostgreSQL database the benchmark may drop and create",
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/1"
    )
    return parser


def main() -> None:
    parser = options()
    args = parser.parse_args()
    if args.sweep and args.smoke:
        parser.error("--sweep runs full points; leave out --smoke")
    if args.repeat < 1 or (args.repeat > 1 and not args.sweep):
        parser.error("--repeat is a number of whole sweeps, at least 1, with --sweep")
    if args.sweep:
        run_sweep(args)
        return
    if args.smoke:
        args.tables, args.seconds = min(args.tables, 3), min(args.seconds, 8.0)
    work = Path(tempfile.mkdtemp(prefix="durak-load-"))
    try:
        site = run_site(args, work)
        if args.no_bare:
            bare = {
                "figures": Figures(),
                "cpu": 0.0,
                "machine_cpu": 0.0,
                "rss_mb": 0.0,
                "errors": [],
            }
        else:
            bare = run_bare(args, work, site["figures"].actions_per_s)
        result = summary(args, site, bare)
        print_table(result, site["errors"] + bare["errors"], site["refused"])
        print(json.dumps(result))
        if args.smoke and not healthy(result):
            sys.exit(1)
    finally:
        if args.keep:
            print("logs in", work, file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
