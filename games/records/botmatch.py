"""Whole games played by bots through the real writers, on a clock that jumps from one
deadline to the next (``manage.py play_bots``): for demos, tests and benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from accounts.models import User
from games import clock, errors
from games.models import BotLevel, Game, Seat, Table, bots_game_name
from games.table import game_rows, play, tables

STEP = 0.001
"""How far past a deadline the clock jumps, so that it is surely due."""
MOST_STEPS = 20_000


class MatchError(Exception):
    """The games cannot be played as asked; the text says why."""


def play_bots(
    games: int,
    players: int,
    *,
    seat: User | None = None,
    stake: int = 0,
    level: str = BotLevel.EASY,
    each: Callable[[Game], None] | None = None,
) -> list[Game]:
    """Play ``games`` complete games at one new table of ``players`` seats. ``seat`` (a
    player) sits at it too, played by the autopilot; the other seats are ``level`` bots.
    The table is closed afterwards. ``each`` sees every game as it ends."""
    if not 2 <= players <= 4:
        raise MatchError(_("A game has 2 to 4 players."))
    if level not in BotLevel.values:
        raise MatchError(_("Unknown bot level."))
    played: list[Game] = []
    with clock.simulated(time.time()) as simulated:
        table = new_table(players, seat, stake, level)
        try:
            for _number in range(games):
                game = start_next(table, seat, level, simulated)
                played.append(play_out(game, simulated))
                if each is not None:
                    each(played[-1])
        finally:
            close(table, seat)
        end_by_now(played, simulated)
    return played


def end_by_now(played: list[Game], simulated: clock.Simulated) -> None:
    """The simulated clock runs ahead of the real one: move the games back so that the last
    ends now, each keeping its length and the time between them."""
    ahead = timedelta(seconds=max(simulated.moment - time.time(), 0))
    Game.objects.filter(pk__in=[game.pk for game in played]).update(
        started_at=F("started_at") - ahead, finished_at=F("finished_at") - ahead
    )
    for game in played:
        game.refresh_from_db(fields=["started_at", "finished_at"])


def new_table(players: int, seat: User | None, stake: int, level: str) -> Table:
    options: dict[str, Any] = {
        "stake": stake,
        "seats": players,
        "move_time": 30,
        "bots_allowed": True,
    }
    name = bots_game_name(level)
    if seat is None:
        return Table.objects.create(name=name, private=False, bots_game=level, **options)
    try:
        table = tables.create_table(seat, name=name, private=False, **options)
        Table.objects.filter(pk=table.pk).update(bots_game=level)
        for _position in range(players - 1):
            tables.add_bot(table.pk, seat, level)
    except errors.GameError as refusal:
        raise MatchError(str(refusal)) from None
    table.refresh_from_db()
    return table


def start_next(table: Table, seat: User | None, level: str, simulated: clock.Simulated) -> Game:
    """Fill the table again (a table of bots alone is emptied after each game) and deal."""
    if seat is None:
        with transaction.atomic():
            locked = game_rows.locked_table(table.pk)
            for position in range(len(locked.seats_in_order()), locked.seats):
                Seat.objects.create(table=locked, position=position, bot_level=level, ready=True)
            tables.arm_start(locked, locked.seats_in_order())
    else:
        tables.play_again(table.pk, seat)
    table.refresh_from_db()
    game = dealt(table, simulated)
    if game is None and table.starts_at is None:
        raise MatchError(_("The table could not start a game."))
    if game is None:
        raise MatchError(
            _("%(name)s could not pay the stake of %(stake)s chips.")
            % {"name": seat.username if seat else "", "stake": table.stake}
        )
    if seat is not None:
        with transaction.atomic():
            Seat.objects.filter(table=table, player=seat).update(away=True)
            play.schedule_autopilot_now(game.pk)
    return game


def dealt(table: Table, simulated: clock.Simulated) -> Game | None:
    """The game dealt once the simulated clock reaches the start time. A live site's
    scheduler deals it itself when the real clock gets there first: that game is played on."""
    running = table.games.filter(status=Game.Status.RUNNING)
    if table.starts_at is None:
        return running.first()
    simulated.advance_to(clock.to_seconds(table.starts_at) + STEP)
    return play.start(table.pk) or running.first()


def play_out(game: Game, simulated: clock.Simulated) -> Game:
    for _step in range(MOST_STEPS):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return game
        if game.deadline_at is None:
            raise MatchError(_("Game #%(id)s waits for nothing.") % {"id": game.pk})
        simulated.advance_to(clock.to_seconds(game.deadline_at) + STEP)
        play.tick(game.pk)
    raise MatchError(_("Game #%(id)s did not end.") % {"id": game.pk})


def close(table: Table, seat: User | None) -> None:
    if seat is not None and Seat.objects.filter(table=table, player=seat).exists():
        tables.leave(table.pk, seat)
    if not table.games.filter(status=Game.Status.RUNNING).exists():
        tables.close_table(table.pk)
