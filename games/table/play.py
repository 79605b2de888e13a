"""The game writer: every change to a running game goes through here.

Each entry point runs the engine on the game as read, saves state and version over the
version read (or locks the row first, where it moves chips or more than the game's row and
events), appends events, moves chips through the ledger and sets the next deadline, in one
transaction or, where the database can, one statement. What the browsers must see is
rendered and sent after the commit.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts import ledger
from accounts.models import User
from games import clock, gates, site_events
from games.bots import Level, choose
from games.engine import Action, Event, IllegalAction, Pass, Phase, Take
from games.engine import Game as EngineGame
from games.errors import GameError, StaleCommand, in_words
from games.models import (
    BotLevel,
    BotSchedule,
    Game,
    GamePlayer,
    Seat,
    Table,
    seat_infos,
    table_key,
)
from games.table import bot_workers, fairness, game_rows, standup
from games.table.committed import (
    Before,
    after_commit_deadline,
    after_commit_table_changed,
    after_commit_unseated,
    committed_game,
    game_finished,
)
from games.table.game_rows import locked_table
from games.table.held_games import held_games

logger = logging.getLogger(__name__)

AWAY_AFTER_TIMEOUTS = 2
ENDLESS_ROUNDS = 150


@dataclass
class Loaded:
    row: Game
    engine: EngineGame
    seats: list[Seat]
    schedule: BotSchedule
    version: int
    """The version this transaction writes: every event it records belongs to it."""
    fingerprint: game_rows.Fingerprint | None = None
    """The game's fingerprint as it was read, if it was."""
    table_before: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)
    unwritten: list[dict[str, Any]] = field(default_factory=list)
    """The events recorded and not yet written, each with its moment: all in one statement,
    after the version's row (`write_recorded`)."""
    timed_out: dict[int, Seat] = field(default_factory=dict)
    """Seats whose timeouts this version counted, by position, to write with its events."""
    returned: dict[int, Seat] = field(default_factory=dict)
    """Seats whose player moved again after timeouts, away or having left, by position: they
    are no longer any of those, written with the version's events."""
    before: Before | None = None
    """The game as it was loaded, so that pages get only what this version changes."""

    def seat_of(self, user: User) -> Seat:
        for seat in self.seats:
            if seat.player_id == user.pk:
                return seat
        raise GameError(_("You do not play in this game."))

    def autopiloted(self) -> set[int]:
        return {seat.position for seat in self.seats if seat.autopiloted}


def load(game_id: int, *, lock: bool = True, found: game_rows.Found | None = None) -> Loaded:
    """The game, locked; without `lock`, as it stands (to decide on, never to write), from
    its fingerprint as `found` if it was just read. What this process wrote last is reused
    when the game's fingerprint shows nothing else changed it (`games.table.held_games`)."""
    if found is None:
        found = game_rows.fingerprint(game_id, lock=lock)
    if found is None:
        raise GameError(_("There is no such game."))
    fingerprint, deadline_at = found
    held = held_games.take(game_id, fingerprint)
    if held is None:
        stored = game_rows.game_and_seats(game_id)
        if stored is None:
            raise GameError(_("There is no such game."))
        row, seats = stored
    else:
        row, seats = held
        row.deadline_at = deadline_at
    engine = EngineGame.from_dict(row.state)
    return Loaded(
        row=row,
        engine=engine,
        seats=seats,
        schedule=BotSchedule.load(row.bot_moves),
        version=row.version + 1,
        fingerprint=fingerprint,
        table_before=table_key(engine),
        before=Before(row.version, row.state, row.bot_moves, tuple(seat_infos(seats))),
    )


def start(table_id: int) -> Game | None:
    """Deal a new game at a full, ready table whose start time has come."""
    row: Game | None
    with transaction.atomic():
        table = locked_table(table_id)
        now = clock.now()
        if (
            table.status != Table.Status.OPEN
            or table.starts_at is None
            or clock.to_seconds(table.starts_at) > now
        ):
            return None
        seats = table.seats_in_order()
        table.starts_at = table.busy_until = None
        if (
            len(seats) != table.seats
            or not all(s.is_bot or s.ready for s in seats)
            or gates.gate().hold(table.pk) is not None
        ):
            table.save(update_fields=["starts_at", "busy_until"])
            return None
        row = Game.objects.create(
            table=table,
            state={},
            stake=table.stake,
            bank=table.stake * len(seats),
            started_at=clock.to_datetime(now),
        )
        engine = fairness.deal(row, table, seats, now)
        GamePlayer.objects.bulk_create(
            GamePlayer(
                game=row,
                seat=s.position,
                player=s.player,
                bot_level=s.bot_level,
                stake=table.stake,
            )
            for s in seats
        )
        try:
            with transaction.atomic():
                ledger.stake_all(row, [s.player for s in seats], table.stake)
        except ledger.InsufficientChips as short:
            row.delete()
            Seat.objects.filter(table=table, player=short.player).delete()
            table.save(update_fields=["starts_at", "busy_until"])
            after_commit_unseated(table_id, short.player.pk, str(short))
            row = None
        else:
            table.status = Table.Status.PLAYING
            table.save(update_fields=["starts_at", "busy_until", "status"])
            Seat.objects.filter(table=table).update(
                ready=False, timeouts=0, away=False, release_at=None
            )
            for seat in seats:
                seat.ready, seat.timeouts, seat.away = False, 0, False
            loaded = Loaded(row=row, engine=engine, seats=seats, schedule=BotSchedule(), version=1)
            record(loaded, [site_events.deal(row.seed_hash)], now)
            save(loaded, now)
        after_commit_table_changed(table_id)
    return row


def act(game_id: int, player: User, action: Action, seen_version: int | None) -> Game:
    """A person's move, decided on the version of the game they were looking at.

    Where a version is one statement (`game_rows.versions_at_once`), the game is read
    without a lock and the move is written only if the game is still at the version read,
    as a bot's move is; a game another writer moved on meanwhile is read again and the move
    tried on it, up to `MOVE_ATTEMPTS` times. Elsewhere it is one transaction from the
    game's row locked."""
    for _attempt in range(MOVE_ATTEMPTS):
        try:
            with reading_to_write():
                return move_once(
                    load(game_id, lock=not game_rows.versions_at_once()),
                    player,
                    action,
                    seen_version,
                )
        except Overtaken:
            continue
    raise StaleCommand(_("The cards on the table changed before your move arrived; look again."))


MOVE_ATTEMPTS = 3
"""How many times a person's move is tried on a game other writers keep moving on."""


def reading_to_write() -> AbstractContextManager[Any]:
    """Around a person's move from its reading on: nothing where its version is written
    over the version read (`writing` then holds what needs a transaction), else the
    transaction that locks the game's row first."""
    return nullcontext() if game_rows.versions_at_once() else transaction.atomic()


def move_once(loaded: Loaded, player: User, action: Action, seen_version: int | None) -> Game:
    """A person's move on the game as `loaded`: `Overtaken` if another writer saved a
    version since."""
    row, engine = loaded.row, loaded.engine
    if row.status != Game.Status.RUNNING:
        raise StaleCommand(_("This game is over."))
    seat = loaded.seat_of(player)
    if seen_version is None or seen_version > row.version:
        raise StaleCommand(_("That move does not match the game you are playing."))
    if seen_version < row.version and not still_fits(action, row, seen_version):
        raise StaleCommand(
            _("The cards on the table changed before your move arrived; look again.")
        )
    now = clock.now()
    events = engine.tick(now)
    refusal = None
    try:
        events += engine.apply(seat.position, action, now)
    except IllegalAction as illegal:
        refusal = in_words(illegal.reason)
        if not events:
            raise GameError(refusal) from None
    else:
        if seat.away or seat.timeouts or seat.left:
            seat.away, seat.timeouts, seat.left = False, 0, False
            loaded.returned[seat.position] = seat
    record(loaded, events, now)
    write_version(loaded, now)
    if refusal is not None:
        raise GameError(refusal)
    return row


def still_fits(action: Action, row: Game, seen_version: int) -> bool:
    """Moves that name their cards stay meaningful when the table moved on; a take or a
    pass does not: it would accept cards the player has not seen."""
    if isinstance(action, Take | Pass):
        return row.table_version <= seen_version
    return True


def tick(
    game_id: int,
    now: float | None = None,
    *,
    claimed_until: datetime | None = None,
    think_aside: bool = False,
    found: game_rows.Found | None = None,
) -> bool:
    """Fire what is due in a game: the engine's deadlines, then the bots' moves.

    The game is read without a lock and the bots decide and move on that state; the result
    is written under the row lock only if the game is still at the version it was read at.
    Returns whether it fired: not when nothing was due (a second scheduler finds nothing to
    do), nor when another writer changed the game meanwhile, which leaves it to the next
    pass. `claimed_until` is a scheduler's claim on the game
    (`games.deadlines.scheduler.claim_game`): its deadline column holds the claim, and it is due;
    `found`, the game's fingerprint as the claim read it.

    A strong bot thinks in a worker process (`games.table.bot_workers`). With `think_aside` a
    tick that would wait for its decision fires nothing and leaves the question asked: the
    scheduler fires the game again when the decision has come. Otherwise the tick waits
    for it."""
    now = clock.now() if now is None else now
    try:
        loaded = load(game_id, lock=False, found=found)
    except GameError:
        return False
    if not due(loaded.row, now, claimed_until):
        return False
    events = loaded.engine.tick(now)
    for seat in loaded.schedule.due_seats(now):
        if loaded.engine.phase == Phase.OVER:
            break
        if events and loaded.seats[seat].bot_level == BotLevel.STRONG:
            break  # its question is asked on the version these events make
        move = bot_move(loaded, seat, now, wait=not think_aside)
        if move is None:
            if not events:
                return False
            break
        events += move
    record(loaded, events, now)
    try:
        write_version(loaded, now)
    except Overtaken:
        return False
    return True


def write_version(loaded: Loaded, now: float) -> None:
    """Save the version over the version read, in the transaction it needs (`writing`):
    `Overtaken` if another writer saved one since (one that ends the game locks the row at
    the version read first)."""
    with writing(loaded):
        if finishing(loaded) and not still_at(loaded.row):
            raise Overtaken
        save(loaded, now)


def writing(loaded: Loaded) -> AbstractContextManager[Any]:
    """The transaction a version is written in: none where the version is one statement
    (`game_rows.versions_at_once`: its row and its events, and nothing else changes, as
    for every move that does not end the game or change a seat), and none of its own inside
    the caller's."""
    at_once = (
        game_rows.versions_at_once()
        and not finishing(loaded)
        and not loaded.timed_out
        and not loaded.returned
    )
    if at_once or connection.in_atomic_block:
        return nullcontext()
    return transaction.atomic()


class Overtaken(Exception):
    """Another writer saved a version of the game since it was read: nothing is written."""


def finishing(loaded: Loaded) -> bool:
    """Whether saving `loaded` ends the game: the payouts and the table's release are written
    before its row, so its row is locked at the version read first."""
    return loaded.engine.phase == Phase.OVER or endless(loaded)


def due(row: Game, now: float, claimed_until: datetime | None) -> bool:
    if row.status != Game.Status.RUNNING or row.deadline_at is None:
        return False
    return row.deadline_at == claimed_until or clock.to_seconds(row.deadline_at) <= now


def still_at(row: Game) -> bool:
    """Lock the game's row, and tell whether it is still at the version `row` was read at."""
    return game_rows.lock_at_version(row.pk, row.version)


def bot_move(loaded: Loaded, position: int, now: float, *, wait: bool) -> list[Event] | None:
    """A bot's move for a seat, decided and made on the engine of `loaded` (nothing is
    written); its rng is seeded from the game's seed, the version it was read at and the
    seat. None while a strong bot's decision is on its way and `wait` is off."""
    engine = loaded.engine
    legal = engine.legal_actions(position)
    if not legal:
        loaded.schedule.due.pop(position, None)
        return []
    seat = loaded.seats[position]
    seed = f"{loaded.row.seed}:{loaded.row.version}:{position}"
    if seat.bot_level == BotLevel.STRONG:
        action = strong_decision(loaded, position, legal, seed, wait=wait)
        if action is None:
            return None
    else:
        action = decide(engine, position, "easy", random.Random(seed))
    loaded.schedule.record_move(position, table_key(engine))
    events = engine.apply(position, action, now)
    by: site_events.By = "bot" if seat.is_bot else "autopilot"
    for event in events:
        site_events.made_by(event, by)
    return events


def strong_decision(
    loaded: Loaded, position: int, legal: list[Action], seed: str, *, wait: bool
) -> Action | None:
    """The strong bot's decision on this version, from a worker process: asked once, and
    taken when it has come (at once, or waiting for it with `wait`). It is asked only on
    the stored version, before anything else changed the game in this tick, so it fits
    the cards whenever it is taken."""
    workers = bot_workers.workers()
    question = bot_workers.Question(loaded.row.pk, loaded.row.version, position)
    asked = workers.ask(question, loaded.engine.view(position), legal, seed)
    if wait:
        asked.result(timeout=bot_workers.ASK_TIMEOUT_SECONDS)
    return workers.answer(question)


def decide(engine: EngineGame, seat: int, level: Level, rng: random.Random) -> Action:
    """The bot's decision on the seat's own view (R16: it sees what a person there would)."""
    return choose(engine.view(seat), engine.legal_actions(seat), rng, level)


def schedule_autopilot_now(game_id: int) -> None:
    """A seat just became autopiloted: let the bots' schedule see it at once. Its seat
    changed outside this writer, so pages get the whole picture."""
    loaded = load(game_id)
    loaded.before = None
    save(loaded, clock.now())


def record(loaded: Loaded, events: Sequence[Mapping[str, Any]], now: float) -> None:
    """Add events to the game's log: the engine's, or the site's own (``site_events``). They
    are written with the version (`write_recorded`)."""
    if not events:
        return
    loaded.row.event_seq += len(events)
    note_timeouts(loaded, events)
    loaded.events.extend(dict(event) for event in events)
    loaded.unwritten.extend({"at": now, **event} for event in events)


def write_recorded(loaded: Loaded) -> None:
    """The events recorded since the last write, in one statement, and the seats whose
    timeouts they counted or whose player came back."""
    row, unwritten = loaded.row, loaded.unwritten
    if unwritten:
        game_rows.append_events(
            row.pk, row.event_seq - len(unwritten) + 1, loaded.version, unwritten
        )
        loaded.unwritten = []
    for seat in loaded.timed_out.values():
        seat.save(update_fields=["timeouts", "away"])
    loaded.timed_out.clear()
    for seat in loaded.returned.values():
        seat.save(update_fields=["away", "timeouts", "left"])
    loaded.returned.clear()


def note_timeouts(loaded: Loaded, events: Sequence[Mapping[str, Any]]) -> None:
    """R15: a player who runs out of time twice in a row is away."""
    for event in events:
        if not event.get("auto") or event.get("seat") is None:
            continue
        seat = loaded.seats[int(event["seat"])]
        if seat.is_bot:
            continue
        seat.timeouts += 1
        seat.away = seat.away or seat.timeouts >= AWAY_AFTER_TIMEOUTS
        loaded.timed_out[seat.position] = seat


def save(loaded: Loaded, now: float) -> None:
    """Write the version: the game's row first, if it is still at the version read (else
    `Overtaken`, and the transaction is to be rolled back), then its events (with the row,
    in the same statement, where `game_rows.versions_at_once`)."""
    row, engine = loaded.row, loaded.engine
    row.version = loaded.version
    if table_key(engine) != loaded.table_before:
        row.table_version = row.version
    if engine.phase == Phase.OVER:
        finish(loaded, now, engine.standings())
    elif endless(loaded):
        record(loaded, [site_events.stopped(engine.round)], now)
        finish(loaded, now, engine.standings())
    else:
        rng = random.Random(f"{row.seed}:{row.version}:schedule")
        loaded.schedule.refresh(engine, loaded.autopiloted(), now, rng)
        due = [d for d in (engine.deadline, loaded.schedule.earliest()) if d is not None]
        row.deadline_at = clock.to_datetime(min(due)) if due else None
    row.state = engine.to_dict()
    row.bot_moves = loaded.schedule.dump()
    if row.status == Game.Status.RUNNING:
        at_once = loaded.unwritten if game_rows.versions_at_once() else []
        if not game_rows.save_version(row, loaded.version - 1, at_once):
            raise Overtaken
        if at_once:
            loaded.unwritten = []
    else:
        row.save()
    write_recorded(loaded)
    transaction.on_commit(partial(changed, loaded))
    if row.deadline_at is not None:
        after_commit_deadline(clock.to_seconds(row.deadline_at))


def changed(loaded: Loaded) -> None:
    hold(loaded)
    committed_game(loaded.row, loaded.events, loaded.seats, loaded.engine, loaded.before)


def hold(loaded: Loaded) -> None:
    """Keep the running game as committed, for its next action in this process."""
    row = loaded.row
    written = None
    if row.status == Game.Status.RUNNING and loaded.fingerprint is not None:
        written = game_rows.after_write(loaded.fingerprint, row, loaded.seats)
    if written is None:
        held_games.drop(row.pk)
    else:
        held_games.keep(written, row, loaded.seats)


def endless(loaded: Loaded) -> bool:
    """Bots alone can pass the same cards round and round for ever once the talon is empty;
    no person is left to break the cycle, so such a game stops after many rounds."""
    engine = loaded.engine
    return engine.round > ENDLESS_ROUNDS and all(
        seat.autopiloted for seat in loaded.seats if engine.in_game[seat.position]
    )


def finish(loaded: Loaded, now: float, groups: list[list[int]]) -> None:
    """Places and payouts written, the bank paid out once, the seed revealed. ``groups`` are the
    engine's standings (a game stopped before its end pays as a draw)."""
    row, engine = loaded.row, loaded.engine
    payouts = ledger.settle(row, groups)
    place = 1
    for group in groups:
        for seat in group:
            GamePlayer.objects.filter(game=row, seat=seat).update(
                place=place, payout=payouts[seat], durak=seat == engine.durak
            )
        place += len(group)
    row.status = Game.Status.FINISHED
    row.finished_at = clock.to_datetime(now)
    row.deadline_at = None
    loaded.schedule = BotSchedule()
    record(loaded, [site_events.seed(row.seed)], now)
    release_table(row.table)
    game_finished.send(sender=Game, game=row)


def release_table(table: Table) -> None:
    """After a game the seated players stay, those who left go, and those who are not here
    (offline or away) keep their seats for a grace; bots are always ready."""
    Seat.objects.filter(table=table).filter(Q(left=True)).delete()
    standup.after_the_game(table)
    Seat.objects.filter(table=table).update(timeouts=0, ready=False)
    Seat.objects.filter(table=table, player__isnull=True).update(ready=True)
    table.status = Table.Status.OPEN
    table.starts_at = None
    table.save(update_fields=["status", "starts_at"])
    if not Seat.objects.filter(table=table, player__isnull=False).exists():
        Seat.objects.filter(table=table).delete()
    after_commit_table_changed(table.pk)


def abort(game_id: int, reason: str = "") -> None:
    """Stop a game without a result: every stake goes back."""
    with transaction.atomic():
        loaded = load(game_id)
        row = loaded.row
        if row.status != Game.Status.RUNNING:
            raise GameError(_("This game is not running."))
        ledger.refund(row)
        row.status = Game.Status.ABORTED
        row.finished_at = clock.to_datetime(clock.now())
        row.deadline_at = None
        row.version = loaded.version
        loaded.schedule = BotSchedule()
        row.bot_moves = {}
        record(
            loaded,
            [site_events.aborted(reason), site_events.seed(row.seed)],
            clock.now(),
        )
        row.save()
        write_recorded(loaded)
        release_table(row.table)
        transaction.on_commit(partial(changed, loaded))


def running_game_id(table_id: int) -> int | None:
    return (
        Game.objects.filter(table_id=table_id, status=Game.Status.RUNNING)
        .values_list("pk", flat=True)
        .first()
    )


def act_at_table(player: User, action: Action, version: int | None, game_id: int | None) -> Game:
    """A move from the page of a table, on the game that page shows (`game_id`, from the
    frames its socket sent) at the `version` it was decided on: one made on the screen of a
    game that is over never lands on the next game at the table, whose versions start again
    at 1."""
    if game_id is None:
        raise StaleCommand(_("No game is running at this table."))
    return act(game_id, player, action, version)
