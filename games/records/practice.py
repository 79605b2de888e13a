"""Practice this deal: a free, private table that deals a finished game's cards again, the
player in the seat of their choice and bots in the others, to try other moves."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.errors import GameError
from games.models import BotLevel, Game, Seat, Table, practice_name
from games.table import tables
from games.table.committed import after_commit_table_changed


def practise(game: Game, user: User, seat: int, level: str, *, leave: bool = False) -> Table:
    """The practice table of `game`'s deal. A player seated at a table between its games
    stands up from it first when they say `leave`."""
    if game.status == Game.Status.RUNNING:
        raise GameError(_("This game is still running: practise its deal once it is over."))
    if not game.deal:
        raise GameError(_("This game was dealt before deals were recorded."))
    players = len(game.deal["hands"])
    if not 0 <= seat < players:
        raise GameError(_("There is no such seat."))
    if level not in BotLevel.values:
        raise GameError(_("Unknown bot level."))
    elsewhere = Seat.objects.filter(player=user).select_related("table").first()
    if elsewhere is not None and leave and elsewhere.table.status != Table.Status.PLAYING:
        tables.leave(elsewhere.table_id, user)
    with transaction.atomic():
        elsewhere = Seat.objects.filter(player=user).select_related("table").first()
        if elsewhere is not None:
            raise tables.seated_elsewhere(elsewhere)
        table = Table.objects.create(
            name=practice_name(game),
            stake=0,
            seats=players,
            move_time=int(game.state["rules"]["move_time"]),
            bots_allowed=True,
            private=True,
            creator=user,
            practice_of=game,
        )
        for position in range(players):
            if position != seat:
                Seat.objects.create(table=table, position=position, bot_level=level, ready=True)
        try:
            with transaction.atomic():
                Seat.objects.create(table=table, position=seat, player=user, ready=True)
        except IntegrityError:
            raise tables.lost_race(user, table.pk) from None
        tables.arm_start(table, table.seats_in_order())
        after_commit_table_changed(table.pk)
    return table
