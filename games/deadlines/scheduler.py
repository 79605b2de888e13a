"""The deadline scheduler: one asyncio loop that fires every due deadline through the
game writer (`games.table.play`), whether embedded in a server process or run on its own.

It sleeps until the earliest deadline, never longer than a sweep interval, and is
woken through the channel layer when a nearer deadline is written. Several may run
at once: each claims one due game at a time, the one whose deadline came first among
those no other scheduler holds, so their work spreads and a slow game holds up only
the scheduler firing it; the writer re-checks the version under the row lock, so each
deadline acts once. Its database work runs on a thread of its own, never on the one
thread that serves the sockets' database calls, so a sweep never delays a handshake.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections, connection, transaction

from games import clock
from games.deadlines import admission, timing
from games.live import broadcast, failures, owners
from games.live.frames import OwnerMove
from games.live.outages import UNREACHABLE
from games.models import Game, Table
from games.table import bot_workers, game_rows, play, standup, tables
from games.table import committed as writers
from games.table.held_games import held_games

logger = logging.getLogger(__name__)

SCHEDULER_GROUP = "scheduler"
SWEEP_SECONDS = 0.25
"""The longest a scheduler rests before it reads the earliest deadline again."""
REJOIN_SECONDS = 3600.0
BUSY_RETRY_SECONDS = 0.01
"""How soon to look again when what is due is held by another writer."""
STAY_SECONDS = 0.03
"""A game due this soon after the last one a sweep fired is waited for on the scheduler's
thread, within the sweep, instead of after a return to the event loop and a rest there: a
busy scheduler fires a game every few milliseconds, and each such trip cost more than the
waiting."""
CLAIM_SECONDS = 5.0
"""How long a scheduler holds a game it fires before another may take it over."""
STOP_SECONDS = 0.3
"""How long a stopping scheduler waits for its wake-ups' task to end by itself."""
HANDOVER_SECONDS = 0.05
"""How late a game another scheduler fired last may run before this one takes it over.
Each scheduler takes up first the games it fired last, so the next action of a game starts
from the game as its process wrote it (`games.table.held_games`) instead of reading it
whole and drawing its last version again; a scheduler that is gone or behind hands its
games over after this long."""
WRITER = f"{socket.gethostname()}:{os.getpid()}"[:64]
"""This process's name on the games its scheduler fires (`Game.writer`)."""

Result = TypeVar("Result")
_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="durak-scheduler")
_owner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="durak-owner")
"""The thread that carries out the moves sent to this scheduler as their games' owner, in
the order they came: beside the deadlines' thread, so that neither waits behind the other
(a move and a deadline of one game meet at its row lock and version, as any two writers)."""


def on_scheduler_thread(
    function: Callable[..., Result], worker: ThreadPoolExecutor = _worker
) -> Callable[..., Awaitable[Result]]:
    """`function` on a thread of the scheduler's own (the deadlines' unless told), handed
    to it directly, with the connection checks `database_sync_to_async` makes around each
    call; on the sockets' thread where the database lives in memory (the tests'), which
    threads cannot share while one writes."""
    shared = database_sync_to_async(function)

    async def call(*args: Any) -> Result:
        if getattr(connection, "is_in_memory_db", lambda: False)():
            return await shared(*args)
        return await asyncio.get_running_loop().run_in_executor(
            worker, partial(with_sound_connection, function, *args)
        )

    return call


def with_sound_connection(function: Callable[..., Result], *args: Any) -> Result:
    """`function`, with a connection that is not past its age or broken before and after."""
    close_old_connections()
    try:
        return function(*args)
    finally:
        close_old_connections()


@dataclass(frozen=True)
class Upcoming:
    """The earliest moment of each kind of deadline, as last read."""

    game: float | None
    start: float | None
    release: float | None

    def earliest(self) -> float | None:
        return min(
            (m for m in (self.game, self.start, self.release) if m is not None), default=None
        )

    def due(self, moment: float | None, now: float) -> bool:
        return moment is not None and moment <= now


def wake_for(deadline: float) -> None:
    """Wake the schedulers for a deadline they would otherwise come to late: one nearer
    than their next sweep. A later one is read at that sweep, so it needs no wake-up (most
    deadlines are a bot's second or more away, and nearly every commit writes one)."""
    if deadline - clock.now() < SWEEP_SECONDS:
        broadcast.send(SCHEDULER_GROUP, {"type": "scheduler.wake", "at": deadline})


def hear_the_writers() -> None:
    """Every deadline a writer stores (`games.table.committed`) may need a wake-up."""
    writers.deadline_written.connect(
        lambda sender, at, **_: wake_for(at), weak=False, dispatch_uid="schedulers"
    )


class Lookout:
    """What is upcoming as last read: while it says no game is due, a sweep claims none. Each
    claim tells the deadline of the game it may take after it, so a sweep that fires games
    one after another reads the rest (starts, graces, other schedulers' games) once, when
    it ends, not with every claim; the rest after the sweep starts from that reading."""

    def __init__(self, upcoming: Upcoming | None) -> None:
        self.upcoming = upcoming
        self.fresh = False
        """Read during this sweep, after the last game it fired."""
        self.whole = False
        """Read whole, not only the next game from a claim."""

    def says_due(self, now: float) -> bool:
        return self.upcoming is None or self.upcoming.due(self.upcoming.game, now)

    def read(self) -> None:
        self.saw(look_ahead())

    def saw(self, upcoming: Upcoming | None, *, whole: bool = True) -> None:
        """What was just read (None: nothing could be); not `whole` when only its next game
        was."""
        self.upcoming = upcoming
        self.fresh = upcoming is not None
        self.whole = whole

    def fired(self, game: int, following: float | None) -> None:
        """After `game` fired: the next game due is the nearer of the one its claim read to
        follow it and the game's own next deadline as this process wrote it; the rest is as
        last read. Read again when the game is no longer held (it ended) or nothing was.

        Another writer's game comes into it only once that writer is overdue
        (`claim_earliest`); the sweep reads the rest whole when it ends (`after_sweep`)."""
        deadline = held_games.deadline_of(game)
        if deadline is None or self.upcoming is None:
            self.read()
            return
        at = clock.to_seconds(deadline)
        nearest = at if following is None else min(following, at)
        self.saw(replace(self.upcoming, game=nearest), whole=False)

    def soon(self, now: float) -> float | None:
        """Seconds until the next game falls due, as read after the last game fired, when
        that comes before anything else upcoming and within `STAY_SECONDS`."""
        upcoming = self.upcoming
        if not self.fresh or upcoming is None or upcoming.game is None:
            return None
        if upcoming.earliest() != upcoming.game or upcoming.game - now > STAY_SECONDS:
            return None
        return max(0.0, upcoming.game - now)

    def forget(self) -> None:
        """What was read no longer holds: the sweep started games or stood players up, or
        a game it said was due was taken first by another scheduler."""
        self.upcoming = None
        self.fresh = False

    def after_sweep(self) -> Upcoming | None:
        """What is upcoming once the sweep is over: as read whole after its last game, or
        read now (each sweep reads it whole at least once, for the starts, the graces and
        the deadlines other processes wrote without a wake-up)."""
        return self.upcoming if self.fresh and self.whole else look_ahead()


def sweep(upcoming: Upcoming | None = None, lookout: Lookout | None = None) -> int:
    """Fire due games, start the tables whose start time has come (as many as the site has
    room for: `games.deadlines.admission`) and stand up the players whose grace after a
    game ran out. The games and the starts have a sweep interval each (what is left waits
    for the next pass), so a burst of one never holds the other up; the games go first,
    since their players are in the middle of a round, and again before each start and
    each table told how long it waits (each draws a picture for its watchers; the starts
    go first), so a running game never waits behind more than one of those. Starts and
    stand-ups are looked for only when `upcoming` (read at the end of the last rest) says
    one is due: a start is armed seconds ahead and a grace lasts 45 s, so a rest always
    reads them before they fall due."""
    fired = fire_due_games(SWEEP_SECONDS, lookout)
    now = clock.now()
    if upcoming is None or upcoming.due(upcoming.start, now):
        if lookout is not None:
            lookout.forget()
        starting, told = admissions.admit(lambda: due_tables(now), now)
        until = time.monotonic() + SWEEP_SECONDS
        for table in starting:
            if time.monotonic() >= until:
                break
            fired += fire_due_games(SWEEP_SECONDS)
            fired += fire_each("start", [(table.table, table.at)], start_unless_taken)
        for table_id in told:
            fired += fire_due_games(SWEEP_SECONDS)
            broadcast.line_told(table_id)
    if upcoming is None or upcoming.due(upcoming.release, now):
        if lookout is not None:
            lookout.forget()
        fired += fire_each("standup", standup.due(now), tables.stand_up)
    return fired


def sweep_and_look(upcoming: Upcoming | None) -> tuple[int, Upcoming | None]:
    """A sweep, and what is upcoming after it, in one call on the scheduler's thread: the
    rest that follows every sweep starts from it without a trip to the thread of its own.
    What the sweep read after the last game it fired is what is upcoming, unless the sweep
    changed more since."""
    lookout = Lookout(upcoming)
    fired = sweep(upcoming, lookout)
    return fired, lookout.after_sweep()


def look_ahead() -> Upcoming | None:
    """What is upcoming, or None (and the failure logged) when it cannot be read."""
    try:
        return read_upcoming()
    except Exception:
        logger.exception("the scheduler could not read the next deadline")
        return None


fire_due = on_scheduler_thread(sweep_and_look)
carry_out_move = on_scheduler_thread(owners.carry_out, _owner)
admissions = admission.Admissions()


def start_unless_taken(table_id: int, at: float) -> bool:
    """Start a due table, unless another scheduler is starting it (its row is locked): the
    next one is started meanwhile, so schedulers share a burst of starts."""
    with transaction.atomic():
        free = Table.objects.select_for_update(skip_locked=True).filter(pk=table_id)
        if free.values_list("pk", flat=True).first() is None:
            return False
        return play.start(table_id) is not None


_thinking: dict[int, Claim] = {}
"""Games this scheduler claimed whose strong bot is thinking in a worker, by game."""


def fire_due_games(seconds: float, lookout: Lookout | None = None) -> int:
    """Fire the games whose bot's decision has come, then due games one claimed game at a
    time, until none is due or `seconds` passed; with a `lookout`, only while it says one
    is due."""
    fired = 0
    for question in bot_workers.workers().waiting():
        claim = _thinking.pop(question.game, None)
        if claim is not None:
            fired += fire_claimed(claim)
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        now = clock.now()
        if lookout is not None and not lookout.says_due(now):
            if not stayed_for_next(lookout, now, until):
                break
            continue
        fire_earliest = fire_earliest_locked if game_rows.claims_lock() else fire_earliest_claimed
        claim, following, done = fire_earliest(now)
        if claim is None:
            if lookout is not None:
                lookout.read()
            break
        fired += done
        if lookout is not None:
            if done:
                lookout.fired(claim.game, following)
            else:
                lookout.read()
    return fired


def stayed_for_next(lookout: Lookout, now: float, until: float) -> bool:
    """Wait on this thread for the next game when it is due soon (`Lookout.soon`), within
    the sweep's time and while no strong bot's decision waits; whether it waited (not on a
    clock that stands still)."""
    wait = lookout.soon(now)
    if wait is None or time.monotonic() + wait >= until or bot_workers.workers().waiting():
        return False
    time.sleep(wait)
    return clock.now() > now


def fire_claimed(claim: Claim) -> int:
    """Fire a claimed game; one whose strong bot is still thinking keeps its claim (its
    deadline column holds it) until the decision comes."""
    fired = fire_each(
        "game",
        [(claim.game, claim.deadline)],
        lambda pk, at: play.tick(
            pk, at, claimed_until=claim.until, think_aside=True, found=claim.found
        ),
    )
    if not fired and bot_workers.workers().thinking_about(claim.game):
        _thinking[claim.game] = replace(claim, found=None)
    return fired


def fire_earliest_claimed(now: float) -> tuple[Claim | None, float | None, int]:
    """The earliest due game this scheduler may take, claimed by moving its deadline to the
    claim's end, then fired; the claim, the deadline of the game it may take next, and
    whether it fired."""
    claim, following = claim_game(now)
    if claim is None:
        return None, following, 0
    admissions.pace.took_up(claim.deadline, now)
    return claim, following, fire_claimed(claim)


def fire_earliest_locked(now: float) -> tuple[Claim | None, float | None, int]:
    """Where claims lock (`game_rows.claims_lock`): the earliest due game this scheduler may
    take, claimed by locking its row and fired in the same transaction, so that firing it
    writes its row once and commits once (a claim that moved its deadline first wrote it
    twice); the claim, the deadline of the game it may take next, and whether it fired.

    Other writers pass over the game while it fires, and a person's move on it waits for
    the commit and is tried again on the new version (`games.table.play.act`). A game whose
    strong bot is still thinking keeps its claim in its deadline column, as a claim that
    moved it does; one whose firing fails is rolled back and falls due again when a claim
    would have ended, not at once."""
    claim: Claim | None = None
    following: float | None = None
    at = clock.now()
    try:
        with broadcast.gathered(), transaction.atomic():
            claim, following = claim_game(now, lock=True)
            if claim is None:
                return None, following, 0
            admissions.pace.took_up(claim.deadline, at)
            done = play.tick(claim.game, at, think_aside=True, found=claim.found)
            thinking = not done and bot_workers.workers().thinking_about(claim.game)
            if thinking:
                hold(claim)
    except Exception:
        if claim is None:
            raise
        logged_failure("game", claim.game)
        hold(claim, while_due=True)
        return claim, following, 0
    if done:
        timing.fired("game", claim.game, claim.deadline, at)
    elif thinking:
        _thinking[claim.game] = replace(claim, found=None)
    return claim, following, int(done)


def hold(claim: Claim, *, while_due: bool = False) -> None:
    """Keep a locked game claimed after its transaction: its deadline column holds the
    claim's end, as `claim_game` would have moved it. `while_due`: only if the game is
    still running and due (one whose firing failed, tried again then, not on every pass)."""
    games = Game.objects.filter(pk=claim.game)
    if while_due:
        games = games.filter(
            status=Game.Status.RUNNING, deadline_at__lte=clock.to_datetime(clock.now())
        )
    games.update(deadline_at=claim.until, writer=WRITER)


def give_back_claims() -> None:
    """The games this scheduler still holds (their strong bot was thinking) fall due again
    at their own deadlines, for another scheduler, rather than when the claims end."""
    claims = list(_thinking.values())
    _thinking.clear()
    for claim in claims:
        Game.objects.filter(pk=claim.game, deadline_at=claim.until).update(
            deadline_at=clock.to_datetime(claim.deadline)
        )


def fire_each(
    kind: str,
    due: list[tuple[int, float]],
    act: Callable[[int, float], bool],
    seconds: float = float("inf"),
) -> int:
    """Carry out each due deadline on its own, for at most `seconds`: one that fails is
    logged, the rest go on."""
    fired = 0
    until = time.monotonic() + seconds
    for key, deadline in due:
        if time.monotonic() >= until:
            break
        at = clock.now()
        try:
            with broadcast.gathered():
                done = act(key, at)
        except Exception:
            logged_failure(kind, key)
            continue
        if done:
            timing.fired(kind, key, deadline, at)
        fired += done
    return fired


def logged_failure(kind: str, key: int) -> None:
    """Log the exception being handled as the failure of a deadline of `kind` (its id `key`)."""
    place = failures.of_deadline(kind, key)
    logger.exception(
        "the %s deadline of %s failed (%s)", kind, key, failures.described(place), extra=place
    )


@dataclass(frozen=True)
class Claim:
    game: int
    deadline: float
    until: datetime
    found: game_rows.Found | None = None
    """The game's fingerprint as read when it was claimed (`game_rows.claim_earliest`)."""


def claim_game(now: float, *, lock: bool = False) -> tuple[Claim | None, float | None]:
    """The running game whose deadline came first among those this scheduler fired last or
    nobody has fired, and those of other schedulers overdue by `HANDOVER_SECONDS`, claimed
    for `CLAIM_SECONDS` and named this process's (`WRITER`): its
    deadline column moves to the claim's end, by an update that holds only if the column
    still holds the deadline read (another scheduler that took the game first moved it), so
    other schedulers pass over the game while its bots decide. Firing it writes its next
    deadline there; a scheduler that dies holding a claim lets the game fall due again when
    the claim ends. With it, the deadline of the game it may take next, read with it
    (`game_rows.claim_earliest`). With `lock`, the game's row is locked for the transaction
    in progress instead, and its deadline stays (`game_rows.lock_earliest`)."""
    until = clock.to_datetime(now + CLAIM_SECONDS)
    overdue = clock.to_datetime(now - HANDOVER_SECONDS)
    if lock:
        claiming = game_rows.lock_earliest(clock.to_datetime(now), WRITER, overdue)
    else:
        claiming = game_rows.claim_earliest(clock.to_datetime(now), until, WRITER, overdue)
    following = clock.to_seconds(claiming.following) if claiming.following else None
    claimed = claiming.claimed
    if claimed is None:
        return None, following
    return (
        Claim(claimed.game, clock.to_seconds(claimed.deadline), until, claimed.found),
        following,
    )


def due_tables(now: float) -> list[admission.Due]:
    """Each open table whose start time has come, with that time and when it was told to
    expect its game, earliest first."""
    return [
        admission.Due(pk, clock.to_seconds(at), clock.to_seconds(told) if told else None)
        for pk, at, told in game_rows.due_tables(clock.to_datetime(now))
    ]


def read_upcoming() -> Upcoming:
    """The earliest moments as this scheduler may act on them: another's game only once it
    is overdue, and a start only at the next look at the line (`admission.Admissions`):
    the tables waiting in line for room have start times long past, and would otherwise
    have the scheduler read all this again every few milliseconds while the site is full."""
    own, any_game, start, release = (
        clock.to_seconds(moment) if moment is not None else None
        for moment in game_rows.next_moments(WRITER)
    )
    handed = any_game + HANDOVER_SECONDS if any_game is not None else None
    game = min((m for m in (own, handed) if m is not None), default=None)
    if start is not None:
        start = max(start, admissions.next_look)
    return Upcoming(game, start, release)


async def carry_out(move: OwnerMove) -> None:
    """A move sent to this scheduler as its game's owner, on the owner's thread."""
    try:
        await carry_out_move(move)
    except Exception:
        logger.exception("the owner could not carry out a move of game %s", move["game"])


class Wakes:
    """Wake-ups through the channel layer, received by a task of their own that is never
    cancelled while it waits: cancelling channels_redis's `receive` (as `asyncio.wait_for`
    does when it times out) can leave it waiting for good and lose messages, which left a
    scheduler idle (tests/games/deadlines/test_scheduler_wakes.py). A scheduler that owns
    games hears their moves here too (`games.live.owners`), in its group of moves, and
    hands each to the owner's thread as it comes."""

    def __init__(self, layer: Any, groups: tuple[str, ...] = (SCHEDULER_GROUP,)) -> None:
        self.layer = layer
        self.groups = groups
        self.channel = ""
        self.woken = asyncio.Event()
        self.received = 0
        self.joined_at = float("-inf")
        self.task: asyncio.Task[None] | None = None
        self.moves: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.channel = await self.layer.new_channel()
        self.task = asyncio.get_running_loop().create_task(self.listen(), name="scheduler-wakes")

    async def listen(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            if message.get("type") == "scheduler.stop":
                return
            self.received += 1
            if message.get("type") == "owner.move":
                move = asyncio.get_running_loop().create_task(carry_out(message))
                self.moves.add(move)
                move.add_done_callback(self.moves.discard)
            else:
                self.woken.set()

    async def join(self) -> None:
        """Be in the scheduler's groups (again every hour, before the layer forgets them)."""
        if time.monotonic() - self.joined_at > REJOIN_SECONDS:
            for group in self.groups:
                await self.layer.group_add(group, self.channel)
            self.joined_at = time.monotonic()

    async def wait(self, seconds: float) -> bool:
        """Until a wake-up (one that came while the scheduler was busy counts) or `seconds`;
        whether it was woken."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.woken.wait(), seconds)
        woken = self.woken.is_set()
        self.woken.clear()
        return woken

    async def stop(self) -> None:
        """Leave the group and end the listening task: told to, or cancelled if it is not done
        at once (Redis may not answer)."""
        for group in self.groups:
            await self.layer.group_discard(group, self.channel)
        with contextlib.suppress(*UNREACHABLE):
            await self.layer.send(self.channel, {"type": "scheduler.stop"})
        if self.task is not None:
            done, _pending = await asyncio.wait({self.task}, timeout=STOP_SECONDS)
            if not done:
                self.task.cancel()


class Scheduler:
    def __init__(self, *, takes_moves: bool = False) -> None:
        """`takes_moves`: the scheduler of a process of its own, which owns the games it
        fires and carries out their persons' moves (`games.live.owners`)."""
        self.stopping = asyncio.Event()
        self.wakes: Wakes | None = None
        self.takes_moves = takes_moves

    async def run(self) -> None:
        broadcast.serve_from(asyncio.get_running_loop())
        layer = get_channel_layer()
        groups: tuple[str, ...] = (SCHEDULER_GROUP,)
        if self.takes_moves and layer is not None:
            groups += (owners.take_moves(WRITER),)
        wakes = Wakes(layer, groups) if layer is not None else None
        if wakes is not None:
            await wakes.start()
            loop = asyncio.get_running_loop()
            bot_workers.workers().on_decided = lambda: loop.call_soon_threadsafe(wakes.woken.set)
        self.wakes = wakes
        try:
            upcoming: Upcoming | None = None
            while not self.stopping.is_set():
                if wakes is not None:
                    await wakes.join()
                upcoming = await self.rest(wakes, *await self.sweep_once(upcoming))
        finally:
            owners.stop_taking_moves()
            if wakes is not None:
                await wakes.stop()
            await on_scheduler_thread(give_back_claims)()

    async def rest(
        self, wakes: Wakes | None, fired: int, upcoming: Upcoming | None = None
    ) -> Upcoming | None:
        """Until the next sweep: the earliest deadline or a sweep interval from now, whichever
        comes first; what is upcoming as last read (`upcoming`, as the sweep read it, or read
        now). A wake-up (a writer's deadline nearer than that) reads the earliest deadline
        again rather than sweeping at once: it may still be a moment away, and every
        scheduler is woken by it."""
        until = time.monotonic() + SWEEP_SECONDS
        eager = bool(fired)
        if upcoming is None:
            upcoming = await self.upcoming()
        while True:
            earliest = upcoming.earliest() if upcoming is not None else None
            wait = until - time.monotonic()
            if earliest is not None:
                wait = min(wait, earliest - clock.now())
            if wait <= 0 and eager:
                return upcoming
            wait = max(wait, BUSY_RETRY_SECONDS)
            if wakes is None:
                await asyncio.sleep(wait)
                return upcoming
            if (
                not await wakes.wait(wait)
                or bot_workers.workers().waiting()
                or self.stopping.is_set()
            ):
                return upcoming
            upcoming = await self.upcoming()
            eager = True

    async def sweep_once(self, upcoming: Upcoming | None) -> tuple[int, Upcoming | None]:
        """How many deadlines the sweep fired, and what is upcoming after it (None if it
        could not be read)."""
        try:
            return await fire_due(upcoming)
        except Exception:
            logger.exception("the scheduler's sweep failed")
            return 0, None

    async def upcoming(self) -> Upcoming | None:
        return await on_scheduler_thread(look_ahead)()

    def stop(self) -> None:
        """Stop after the sweep under way, without resting first."""
        self.stopping.set()
        if self.wakes is not None:
            self.wakes.woken.set()


_embedded: asyncio.Task[None] | None = None


def ensure_embedded() -> None:
    """Start the scheduler on this process's running event loop, once."""
    global _embedded
    if not settings.EMBEDDED_SCHEDULER:
        return
    if _embedded is not None and not _embedded.done():
        return
    _embedded = asyncio.get_running_loop().create_task(Scheduler().run(), name="durak-scheduler")


def start_with_server() -> None:
    """Start the embedded scheduler as soon as the server runs, before any page is open.

    Daphne installs Twisted's asyncio reactor before it loads the application and runs
    the site's event loop inside it: a call the reactor schedules now runs on that loop
    as soon as it turns.
    """
    if not settings.EMBEDDED_SCHEDULER:
        return
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is not None:
        reactor.callLater(0, ensure_embedded)
