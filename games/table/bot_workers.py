"""Strong bots think in worker processes of their own, never in a thread or process that
serves sockets or writes games: a search takes up to `Search.budget` of a core, and where
it runs every socket and every other game would wait behind it.

The workers run only on what the site leaves of the cores: on Linux in its idle class,
where a thread of the site that wakes takes the core from a search at once (at a
`WORKER_NICENESS` where there is no such class or it is refused). A class counts only
against the processes of the worker's own group of processes (its cgroup, or on Linux
without one its session's autogroup): against the database, the other servers and every
other group, a worker would take half a core like any busy process. So where the machine
lets it, each worker joins `IDLE_GROUP`, a cgroup that is idle itself (`cpu.idle`), and
yields to every other process of the machine at once. A bot's move is due
1.5–3 s after it has something to do (R16), which leaves the search room to wait. A
decision is asked for on the view of its seat at one version of the game and is used
only at that version.

A decision is asked for when the bot's move falls due, so it is owed at once: a search
thinks only until `ANSWER_WITHIN_SECONDS` after it was asked. One that waited behind
others searches what is left of that, and one that waited longer plays the easy bot's
choice at once: when the room asks more of the workers than their cores give, the bots
play weaker rather than late.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from games.bots import Level, Search, choose
from games.engine import Action, View

WORKER_NICENESS = 10
IDLE_GROUP = "durak-bot-workers"
CGROUP_ROOTS = (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup"))
ASK_TIMEOUT_SECONDS = 30.0
ANSWER_WITHIN_SECONDS = 0.1


@dataclass(frozen=True)
class Question:
    """What a bot at `seat` is asked at `version` of `game`."""

    game: int
    version: int
    seat: int


def think(view: View, legal: Sequence[Action], seed: str, level: Level, answer_by: float) -> Action:
    """The bot's decision, in a worker: the same as `games.bots.choose` would make, searching
    no later than `answer_by` (`time.monotonic()`, one clock for every process of the machine)."""
    budget = min(Search.budget, max(0.0, answer_by - time.monotonic()))
    return choose(view, legal, random.Random(seed), level, budget=budget)


def _lower_priority() -> None:
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):  # no idle class here, or a sandbox refuses it
        os.nice(WORKER_NICENESS)
    _join_the_idle_group()


def _join_the_idle_group() -> None:
    for root in CGROUP_ROOTS:
        cgroup_fs = (root / "cpu.idle").exists() or (root / "cgroup.controllers").exists()
        if not cgroup_fs:
            continue
        group = root / IDLE_GROUP
        try:
            group.mkdir(exist_ok=True)
            (group / "cpu.idle").write_text("1")
            (group / "cgroup.procs").write_text(str(os.getpid()))
        except OSError:  # no cpu controller or no right to it: the class alone
            continue
        return


class Workers:
    """The pool of bot processes, started on first use, and the decisions on their way."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self.lock = threading.Lock()
        self.pool: ProcessPoolExecutor | None = None
        self.asked: dict[Question, Future[Action]] = {}
        self.on_decided: Callable[[], object] | None = None
        """Called from a worker's result thread when any decision arrives."""

    def executor(self) -> ProcessPoolExecutor:
        with self.lock:
            if self.pool is None:
                self.pool = ProcessPoolExecutor(
                    max_workers=self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority,
                )
            return self.pool

    def ask(
        self, question: Question, view: View, legal: Sequence[Action], seed: str
    ) -> Future[Action]:
        """Ask once: a question already on its way is not asked again."""
        with self.lock:
            asked = self.asked.get(question)
        if asked is not None:
            return asked
        answer_by = time.monotonic() + ANSWER_WITHIN_SECONDS
        future = self.executor().submit(think, view, list(legal), seed, "strong", answer_by)
        with self.lock:
            self.asked = {
                q: f for q, f in self.asked.items() if q.game != question.game or q == question
            }
            self.asked[question] = future
        future.add_done_callback(self.decided)
        return future

    def decided(self, _future: Future[Action]) -> None:
        if self.on_decided is not None:
            self.on_decided()

    def answer(self, question: Question) -> Action | None:
        """The decision for `question` if it has come, taken (asked again, it is searched
        again); None while it is on its way or never asked."""
        with self.lock:
            future = self.asked.get(question)
            if future is None or not future.done():
                return None
            del self.asked[question]
        return future.result()

    def waiting(self) -> list[Question]:
        """The questions whose decision came and was not taken yet."""
        with self.lock:
            return [q for q, future in self.asked.items() if future.done()]

    def thinking_about(self, game: int) -> bool:
        with self.lock:
            return any(q.game == game for q in self.asked)

    def shutdown(self) -> None:
        with self.lock:
            pool, self.pool = self.pool, None
            self.asked = {}
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


_workers: Workers | None = None


def workers() -> Workers:
    global _workers
    if _workers is None:
        from django.conf import settings

        _workers = Workers(settings.BOT_WORKERS)
    return _workers
