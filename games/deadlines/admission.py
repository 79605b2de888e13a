"""How many games the site plays at once, and who waits when it is full.

The site holds at most `settings.RUNNING_GAMES_LIMIT` running games
(`DURAK_RUNNING_GAMES_LIMIT`), and fewer where the machine cannot play that many on time
(`Capacity`): a scheduler starts new games only while it takes up the running games' due
deadlines well on time (`Pace`), at most `STARTS_AT_ONCE` at a look, so that a room
filling at once is started at a pace whose cost shows before the next ones start; once
they have run late for seconds (longer than a fault's stall) it lets itself play fewer
games than it plays then, and one more at a time again while they are on time. What
waits is the start of new games, in the order their tables became ready; running games
never wait, so their deadlines stay on time however many tables fill up, on a machine of
any speed.
A waiting table keeps its start time and is told when its game should start
(`Table.busy_until`, from how long games here last); when that moment passes with the
site still full, it is told again.

Handshakes wait in a line of their own (`games.live.handshakes`).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from django.conf import settings
from django.db.models import Q

from games import clock
from games.models import Game, Table

GAME_LENGTH_SECONDS = 120.0
"""How long a game is taken to last before enough games here have finished to tell."""
GAMES_TO_AVERAGE = 50
GAME_LENGTH_SECONDS_KEPT = 30.0
"""How long a scheduler keeps the mean length of the latest games before reading it again."""
WAIT_STEP_SECONDS = 5
TELL_AT_ONCE = 8
"""Tables in line told their expected start in one look (each is a new picture to draw):
the rest are told at the next looks, so a full room's first look holds up no game."""


def running_games() -> int:
    return Game.objects.filter(status=Game.Status.RUNNING).count()


def game_length() -> float:
    """The mean length of the latest finished games, in seconds."""
    latest = (
        Game.objects.filter(status=Game.Status.FINISHED, finished_at__isnull=False)
        .order_by("-finished_at")
        .values_list("started_at", "finished_at")[:GAMES_TO_AVERAGE]
    )
    lengths = [(end - start).total_seconds() for start, end in latest if end is not None]
    return sum(lengths) / len(lengths) if lengths else GAME_LENGTH_SECONDS


def expected_wait(position: int, length: float, limit: int) -> float:
    """Seconds until the table `position`-th in line (0 first) gets a slot, on a site that
    plays `limit` games at once: they end at about `limit / length` a second."""
    seconds = (position + 1) * length / max(1, limit)
    return float(math.ceil(seconds / WAIT_STEP_SECONDS) * WAIT_STEP_SECONDS)


NEXT_LOOK_SECONDS = 0.25
"""While tables that have a slot wait for their turn to start, how soon a scheduler looks
again."""
FULL_RECHECK_SECONDS = 1.0
"""While the site is full, or its games are taken up too late for any to start, how often
a scheduler looks again: each look reads the whole line, and a table in line starts at most
this long after a game ended."""
STARTS_AT_ONCE = 4
"""Games started at one look: at most this many every `NEXT_LOOK_SECONDS`."""
PACE_SECONDS = 2.0
"""How far back a scheduler looks at how late it took up its games."""
PACE_LATE_SECONDS = 0.1
"""Nine in ten games taken up within this of their deadline: the scheduler keeps up."""
PACE_EASY_SECONDS = 0.05
"""Nine in ten within this: the machine has room for another game, one at a look. Between
the two, the games are on time but the machine is near what it can do, and no new game
starts."""
PACE_IDLE_SECONDS = 0.025
"""Nine in ten within this: the machine has room for `STARTS_AT_ONCE` games at a look."""
CAPACITY_GROWS_SECONDS = 2.0
"""While its games are well on time and the site plays all it lets itself, it lets itself
one more game this often."""
PACE_SAMPLES = 10
"""Fewer games than this taken up over `PACE_SECONDS` say nothing of the load."""
LATE_FOR_SECONDS = 5.0
"""How long the games must have run late before the site lets itself fewer: longer than a
fault's stall lasts in the pace (Redis or a server starting again holds the games up for
2-3 s, and the pace remembers them for `PACE_SECONDS` more), after which the site has as
much room as before; games that run late this long are more than the machine plays."""


class Pace:
    """How late this scheduler took up its due games lately, from each one's deadline to
    its claim: while nine in ten of the latest were not within `PACE_LATE_SECONDS`, the
    machine plays what it can and no new game starts here."""

    def __init__(self) -> None:
        self.late: deque[tuple[float, float]] = deque()
        """(when, seconds late) of each game taken up over the last `PACE_SECONDS`."""

    def took_up(self, deadline: float, now: float) -> None:
        self.late.append((now, max(0.0, now - deadline)))
        self.forget_before(now - PACE_SECONDS)

    def forget_before(self, moment: float) -> None:
        while self.late and self.late[0][0] < moment:
            self.late.popleft()

    def keeping_up(self, now: float) -> bool:
        return self.lateness(now) < PACE_LATE_SECONDS

    def starts_at_once(self, now: float) -> int:
        """How many games may start at this look: fewer as the games are taken up later,
        since a game started now shows its cost only when its first deadlines come."""
        lateness = self.lateness(now)
        if lateness < PACE_IDLE_SECONDS:
            return STARTS_AT_ONCE
        return 1 if lateness < PACE_EASY_SECONDS else 0

    def lateness(self, now: float) -> float:
        """How late nine in ten of the latest games were taken up at most (none while too
        few were taken up to tell)."""
        self.forget_before(now - PACE_SECONDS)
        if len(self.late) < PACE_SAMPLES:
            return 0.0
        lateness = sorted(seconds for _at, seconds in self.late)
        return lateness[int(0.9 * (len(lateness) - 1))]


class Room(NamedTuple):
    """What a look finds: how many more games the site lets itself play, how many of them
    may start at this look, and how many it lets itself play in all."""

    slots: int
    at_once: int
    limit: int


class Capacity:
    """How many games the site lets itself play at once: `settings.RUNNING_GAMES_LIMIT`,
    until its games ran late for `LATE_FOR_SECONDS`; then one fewer than it played at that
    moment (games that run cannot be made to wait, so the site plays on what it holds, and
    starts again once enough of them have ended), growing again by one every
    `CAPACITY_GROWS_SECONDS` while the games are well on time and the site plays all it
    lets itself. While they run late no game starts, however briefly."""

    def __init__(self) -> None:
        self.learnt: int | None = None
        self.grown_at = float("-inf")
        self.late_since: float | None = None

    def limit(self) -> int:
        configured = settings.RUNNING_GAMES_LIMIT
        return configured if self.learnt is None else min(self.learnt, configured)

    def running_late(self, running: int, now: float) -> None:
        self.learnt = max(1, min(self.limit(), running - 1))
        self.grown_at = now

    def grow(self, running: int, now: float) -> None:
        if self.learnt is None or running < self.learnt:
            return
        if now - self.grown_at >= CAPACITY_GROWS_SECONDS:
            self.learnt, self.grown_at = self.learnt + 1, now
            if self.learnt >= settings.RUNNING_GAMES_LIMIT:
                self.learnt = None

    def room(self, pace: Pace, now: float) -> Room:
        running = running_games()
        if pace.keeping_up(now):
            self.late_since = None
        elif self.late_since is None:
            self.late_since = now
        elif now - self.late_since >= LATE_FOR_SECONDS:
            self.running_late(running, now)
        at_once = pace.starts_at_once(now)
        if at_once:
            self.grow(running, now)
        return Room(max(0, self.limit() - running), at_once, self.limit())


class Due(NamedTuple):
    """A table whose start time has come."""

    table: int
    at: float
    told_until: float | None
    """When it was told to expect its game (`Table.busy_until`), if it was."""


class Admissions:
    """What a scheduler last found: while tables wait, they are looked at again only after
    `NEXT_LOOK_SECONDS`, or `FULL_RECHECK_SECONDS` while the site is full, not on every
    sweep (a sweep follows every deadline, and a long line costs a query of every table in
    it)."""

    def __init__(self) -> None:
        self.next_look = float("-inf")
        self.pace = Pace()
        self.capacity = Capacity()
        self.length: tuple[float, float] | None = None
        """When the mean length of the latest games was read, and what it was."""

    def game_length(self, now: float) -> float:
        """The mean length of the latest games, read again at most every
        `GAME_LENGTH_SECONDS_KEPT` (each look at a long line needs it)."""
        if self.length is None or now - self.length[0] >= GAME_LENGTH_SECONDS_KEPT:
            self.length = (now, game_length())
        return self.length[1]

    def admit(self, due: Callable[[], list[Due]], now: float) -> tuple[list[Due], list[int]]:
        """Of the tables whose start time has come (`due`, earliest first), those that may
        start now, and those newly told when to expect their game (their `busy_until` set
        or passed): the rest wait in line."""
        if now < self.next_look:
            return [], []
        room = self.capacity.room(self.pace, now)
        admitted, told, waiting = admit(due(), now, room, lambda: self.game_length(now))
        if not waiting:
            self.next_look = float("-inf")
        elif room.slots <= len(admitted) or not room.at_once:
            self.next_look = now + FULL_RECHECK_SECONDS
        else:
            self.next_look = now + NEXT_LOOK_SECONDS
        return admitted, told


def admit(
    due: list[Due],
    now: float,
    room: Room,
    length_of_games: Callable[[], float] = game_length,
) -> tuple[list[Due], list[int], bool]:
    """Of the tables whose start time has come (earliest first), those that may start now
    (as the `room` says), those newly told when to expect their game (their `busy_until`
    set or passed), and whether any waits: for a slot (those are told), or for the next
    look (a slot is theirs but as many as may start at a look started already)."""
    admitted = due[: min(room.slots, room.at_once)]
    waiting = due[room.slots :]
    if not waiting:
        return admitted, [], len(admitted) < len(due)
    to_tell = [
        (position, table.table)
        for position, table in enumerate(waiting)
        if table.told_until is None or table.told_until <= now
    ][:TELL_AT_ONCE]
    if not to_tell:
        return admitted, [], True
    length = length_of_games()
    for position, pk in to_tell:
        Table.objects.filter(pk=pk).filter(
            Q(busy_until__isnull=True) | Q(busy_until__lte=clock.to_datetime(now))
        ).update(busy_until=clock.to_datetime(now + expected_wait(position, length, room.limit)))
    return admitted, [pk for _position, pk in to_tell], True
