"""A table at a version, as each audience may see it: one value and one renderer.

The broadcast after a commit and the snapshot on connect both describe the table with
`Scene` and draw it with `render`, so a page that (re)connects shows exactly what a page
that stayed open shows. A scene is built once from the stored rows (the game's state and
bot schedule, the table, its seats, the events of this version) and rendered for any
`Audience`: the spectators or one seat, in one language.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from accounts import ledger
from games import clock, gates, rows
from games.engine import Game as EngineGame
from games.gates import Hold
from games.models import (
    BotLevel,
    BotSchedule,
    Game,
    GamePlayer,
    Seat,
    SeatInfo,
    Table,
    seat_infos,
)
from games.picture import movelog, pieces, stopped
from games.picture.receipt import receipt
from games.table.committed import Before, GameCommitted


@dataclass(frozen=True)
class Audience:
    """Who reads a rendering: the spectators (seat None) or one seat, in one language."""

    seat: int | None
    language: str


@dataclass(frozen=True)
class Scene:
    table: Table
    seats: tuple[Seat, ...]
    now: float
    game: Game | None = None
    """The running game; None while the table waits for its next game."""
    engine: EngineGame | None = None
    names: tuple[SeatInfo, ...] = ()
    """Who plays each position of the running game."""
    thinking: frozenset[int] = frozenset()
    """Bot seats whose move is due (R16)."""
    news: tuple[dict[str, Any], ...] = ()
    """The events that produced this version: its headline and its new log lines."""
    last: Game | None = None
    """The table's last game that is over (the waiting room shows its result)."""
    last_game_players: tuple[GamePlayer, ...] = ()
    """Who played each seat of the last game, with their places and payouts, by seat."""
    receipt: dict[str, Any] | None = None
    hold: Hold | None = None
    """Why no new game starts here now (the staff paused new games or locked the table)."""
    before: Before | None = None
    """The game at the previous version, when the writer tells it: pages that show that
    version get only what changed."""
    log: tuple[dict[str, Any], ...] = ()
    """The latest events of the running game, or of the last game, when they were read
    (`of_table`'s `log_lines`)."""

    @cached_property
    def balances(self) -> Mapping[int, int]:
        """Chips of each seated person, by position (read only for a whole picture: chips
        move when a game starts or ends, never between two versions of one game)."""
        return {
            seat.position: ledger.balance(seat.player)
            for seat in self.seats
            if seat.player is not None
        }

    @cached_property
    def engine_before(self) -> EngineGame:
        assert self.before is not None
        return EngineGame.from_dict(self.before.state)

    @cached_property
    def last_players(self) -> frozenset[int]:
        """The people who played the last game: only they see its whole result."""
        return frozenset(p.player_id for p in self.last_game_players if p.player_id is not None)

    @property
    def durak(self) -> GamePlayer | None:
        """Who was the durak of the last game, if anyone."""
        return next((p for p in self.last_game_players if p.durak), None)

    @property
    def version(self) -> int | None:
        return self.game.version if self.game is not None else None

    def seat(self, position: int | None) -> Seat | None:
        return next((s for s in self.seats if s.position == position), None)

    def audiences(self, languages: Iterable[str] | None = None) -> list[Audience]:
        """The spectators in each of `languages` (all the site's by default), then each
        seated person in their own language."""
        codes = [code for code, _name in settings.LANGUAGES] if languages is None else languages
        spectators = [Audience(None, code) for code in codes]
        return spectators + [
            Audience(seat.position, seat_language(seat)) for seat in self.seats if not seat.is_bot
        ]


def seat_language(seat: Seat) -> str:
    return getattr(seat.player, "language", "") or settings.LANGUAGE_CODE


def of_table(table_id: int, *, log_lines: int = 0) -> Scene:
    """The table as it is stored now; with `log_lines`, with that many of the latest lines
    of its running game's log, or of its last game's (`Scene.log`)."""
    found = rows.table_and_game(table_id)
    if found is None:
        raise Table.DoesNotExist(f"There is no table {table_id}.")
    table, game = found
    seats = tuple(rows.seats_of(table))
    if game is None:
        waiting = build(table, None, (), seats)
        if not log_lines or waiting.last is None:
            return waiting
        return replace(waiting, log=logged(rows.latest_events(waiting.last.pk, log_lines)))
    latest = rows.latest_events(game.pk, max(log_lines, NEWS_LINES))
    news = [data for data, version in latest if version == game.version]
    if len(news) == len(latest):
        news = [data for data, _version in rows.version_events(game.pk, game.version)]
    log = logged(latest[-log_lines:]) if log_lines else ()
    return replace(build(table, game, tuple(news), seats), log=log)


NEWS_LINES = 16
"""Events read to find those of the latest version (a version makes a few): when all of them
are of that version, its events are read on their own."""


def logged(events: Sequence[tuple[dict[str, Any], int]]) -> tuple[dict[str, Any], ...]:
    return tuple(data for data, _version in events)


def of_game(committed: GameCommitted) -> Scene:
    """The table just after a writer's commit. The writer of a running game tells its
    table (`game.table`), seats and engine as it stored them, which saves reading them
    again, and the game before its change."""
    game = committed.game
    if game.status == Game.Status.RUNNING and committed.seats is not None:
        return build(
            game.table,
            game,
            committed.events,
            committed.seats,
            committed.before,
            committed.engine,
        )
    table = Table.objects.get(pk=game.table_id)
    return build(table, game if game.status == Game.Status.RUNNING else None, committed.events)


def build(
    table: Table,
    game: Game | None,
    news: tuple[dict[str, Any], ...],
    stored_seats: tuple[Seat, ...] | None = None,
    before: Before | None = None,
    stored_engine: EngineGame | None = None,
) -> Scene:
    seats = tuple(table.seats_in_order()) if stored_seats is None else stored_seats
    now = clock.now()
    if game is None:
        last = rows.last_game(table.pk)
        players = tuple(rows.players_of(last)) if last is not None else ()
        shown = last is not None and not stopped.is_stopped(last)
        return Scene(
            table=table,
            seats=seats,
            now=now,
            news=news,
            last=last,
            last_game_players=players,
            receipt=receipt(last, players) if shown and last is not None else None,
            hold=gates.gate().hold(table.pk) if table.status == Table.Status.OPEN else None,
        )
    engine = EngineGame.from_dict(game.state) if stored_engine is None else stored_engine
    if [seat.position for seat in seats] == list(range(engine.players)):
        names = seat_infos(seats)
    else:
        names = seat_infos(game.players.select_related("player").order_by("seat"))
    return Scene(
        table=table,
        seats=seats,
        now=now,
        game=game,
        engine=engine,
        names=tuple(names),
        thinking=thinking(game.bot_moves, names),
        news=news,
        before=before if before is not None and before.version == game.version - 1 else None,
    )


def thinking(bot_moves: dict[str, Any], names: Sequence[SeatInfo]) -> frozenset[int]:
    due = BotSchedule.load(bot_moves).due
    return frozenset(position for position in due if names[position].is_bot)


def reading_in(language: str) -> AbstractContextManager[Any]:
    """`language` made active, unless it already is: a writer draws each audience of a
    version in its language, its changes and its log lines in turn."""
    if translation.get_language() == language:
        return nullcontext()
    return translation.override(language)


def render(scene: Scene, audience: Audience) -> str:
    """The `#game` section for one audience."""
    with reading_in(audience.language):
        if scene.game is None or scene.engine is None:
            context = waiting_context(scene, scene.seat(audience.seat))
            return render_to_string("games/fragments/waiting.html", context)
        drawn = section(scene, audience)
        shown.keep(scene.game, audience, drawn)
        return drawn.draw()


def render_changes(scene: Scene, audience: Audience) -> str | None:
    """What changed for one audience since the version before, to apply on top of it; None
    when the writer did not tell that version (the whole section is drawn then). Drawn in
    the language its caller made active: the audience's (`reading_in`)."""
    if scene.before is None or scene.game is None or scene.engine is None:
        return None
    now = section(scene, audience, chips=False)
    earlier = shown.at(scene.game, audience, scene.before.version)
    if earlier is None:
        earlier = earlier_section(scene, audience)
    shown.keep(scene.game, audience, now)
    return now.changes_since(earlier)


class Shown:
    """The section each audience of a game was last drawn, so that the next version's
    changes are told from it instead of drawing the version before again: only an earlier
    drawing of the same game (its seed tells it from a game that had its id before), seat
    and language, at the version asked for."""

    KEPT = 4096

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sections: OrderedDict[tuple[int, str, int | None, str], pieces.Section] = OrderedDict()

    def keep(self, game: Game, audience: Audience, drawn: pieces.Section) -> None:
        key = (game.pk, game.seed, audience.seat, audience.language)
        with self.lock:
            self.sections[key] = drawn
            self.sections.move_to_end(key)
            while len(self.sections) > self.KEPT:
                self.sections.popitem(last=False)

    def at(self, game: Game, audience: Audience, version: int) -> pieces.Section | None:
        with self.lock:
            drawn = self.sections.get((game.pk, game.seed, audience.seat, audience.language))
        return drawn if drawn is not None and drawn.version == version else None


shown = Shown()


def section(scene: Scene, audience: Audience, *, chips: bool = True) -> pieces.Section:
    """The audience's section, in its language, which its caller made active."""
    assert scene.game is not None and scene.engine is not None
    seat = audience.seat if chips else None
    return pieces.section(
        scene.game.pk,
        scene.game.version,
        scene.engine,
        scene.names,
        audience.seat,
        now=scene.now,
        bots_thinking=scene.thinking,
        headline=movelog.headline(scene.news, scene.names),
        balance=scene.balances.get(seat) if seat is not None else None,
        language=audience.language,
    )


def earlier_section(scene: Scene, audience: Audience) -> pieces.Section:
    """The section of the version before, as `section` (in the active language)."""
    before, game = scene.before, scene.game
    assert before is not None and game is not None
    names = before.names if len(before.names) == len(scene.names) else scene.names
    return pieces.section(
        game.pk,
        before.version,
        scene.engine_before,
        names,
        audience.seat,
        now=scene.now,
        bots_thinking=thinking(before.bot_moves, names),
        language=audience.language,
    )


def waiting_context(scene: Scene, seat: Seat | None) -> dict[str, Any]:
    table, seats, last = scene.table, list(scene.seats), scene.last
    played_last = seat is not None and seat.player_id in scene.last_players
    by_position = {s.position: s for s in seats}
    return {
        "table": table,
        "places": [(position, by_position.get(position)) for position in range(table.seats)],
        "is_host": seat is not None and seat.player_id == table.host_id(seats),
        "bot_levels": BotLevel.choices,
        **status_context(scene, seat),
        "last": scene.receipt if played_last else None,
        "stopped": stopped.summary(last) if played_last else None,
        "last_game": last
        if last is not None and (scene.receipt or stopped.is_stopped(last))
        else None,
        "held": scene.hold.words if scene.hold is not None else None,
        "balance": scene.balances.get(seat.position) if seat is not None else None,
        "durak": scene.durak,
    }


def status_context(scene: Scene, seat: Seat | None) -> dict[str, Any]:
    """What the waiting room's status line reads: when the game starts, how long the site
    makes it wait, or how many players it waits for."""
    table = scene.table
    return {
        "seat": seat,
        "free_seats": table.seats - len(scene.seats),
        "starts_ms": int(clock.to_seconds(table.starts_at) * 1000) if table.starts_at else None,
        "busy_seconds": busy_seconds(table, scene.now),
        "now_ms": int(scene.now * 1000),
    }


def of_waiting_table(table_id: int) -> Scene | None:
    """The table and its seats only, while it waits for its game (None once it plays): what
    its status line and its audiences need."""
    table = Table.objects.filter(pk=table_id, status=Table.Status.OPEN).first()
    if table is None:
        return None
    return Scene(table=table, seats=tuple(rows.seats_of(table)), now=clock.now())


def render_status(scene: Scene, audience: Audience) -> str:
    """The waiting room's status line for one audience, to swap in on its own."""
    with reading_in(audience.language):
        context = {**status_context(scene, scene.seat(audience.seat)), "oob": True}
        return render_to_string("games/fragments/waiting_status.html", context)


def busy_seconds(table: Table, now: float) -> int | None:
    """While the site is full (`games.deadlines.admission`): about how long until this
    table's game."""
    if table.starts_at is None or table.busy_until is None:
        return None
    return max(1, math.ceil(clock.to_seconds(table.busy_until) - now))


def log_names(game: Game) -> list[SeatInfo]:
    """Who played each position of a game, for its log (seats may be gone by now)."""
    return seat_infos(game.players.select_related("player").order_by("seat"))


def names_in_log(scene: Scene) -> list[SeatInfo] | None:
    """Who played each position of the game whose log the scene shows: the running game's
    names, or the last game's players; None when the table has had no game."""
    if scene.game is not None:
        return list(scene.names)
    if scene.last is not None:
        return seat_infos(scene.last_game_players)
    return None


def render_news(
    scene: Scene,
    names: Sequence[SeatInfo],
    audience: Audience,
    earlier: Sequence[Game] | None = None,
) -> str:
    """The log lines this version adds, for one audience, in the language its caller made
    active (the audience's); a game's first version starts a new log, under which the
    table's `earlier` games are linked."""
    if earlier is not None:
        return movelog.render_log(scene.news, names, audience.seat, earlier)
    return movelog.render_log_append(scene.news, names, audience.seat)
