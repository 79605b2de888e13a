"""Table lifecycle: opening a table, taking and leaving seats, bots, the start timer.

Each entry point is one transaction that locks the table row; what the lobby and the
waiting room must show is sent after the commit.
"""

from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import ledger
from accounts.models import User
from games import clock, gates
from games.errors import GameError, SeatedElsewhere
from games.models import BotLevel, Game, Seat, Table
from games.table import fairness, play
from games.table.committed import (
    after_commit_deadline,
    after_commit_table_changed,
    after_commit_unseated,
)
from games.table.game_rows import locked_table

START_DELAY = 3.0


def create_table(
    creator: User,
    *,
    name: str,
    stake: int,
    seats: int,
    move_time: int,
    bots_allowed: bool,
    private: bool,
    spectators_chat: bool = False,
) -> Table:
    with transaction.atomic():
        table = Table.objects.create(
            name=name,
            stake=stake,
            seats=seats,
            move_time=move_time,
            bots_allowed=bots_allowed,
            private=private,
            spectators_chat=spectators_chat,
            creator=creator,
        )
        join(table.pk, creator, invite_code=table.invite_code)
    return table


def free_position(table: Table, seats: list[Seat]) -> int:
    taken = {seat.position for seat in seats}
    for position in range(table.seats):
        if position not in taken:
            return position
    raise GameError(_("This table is full."))


def join(table_id: int, user: User, invite_code: str = "") -> Seat:
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.OPEN:
            raise GameError(_("A game is being played at this table; wait for it to end."))
        if table.private and invite_code != table.invite_code:
            raise GameError(_("This table is private: you need its invite link."))
        locked = gates.gate().join_refusal(table.pk)
        if locked is not None:
            raise GameError(locked)
        other = Seat.objects.filter(player=user).select_related("table").first()
        if other is not None:
            if other.table_id == table.pk:
                raise GameError(_("You already sit at this table."))
            raise seated_elsewhere(other)
        if table.stake and ledger.balance(user) < table.stake:
            raise GameError(
                _("This table's stake is %(stake)s chips and you have %(balance)s.")
                % {"stake": table.stake, "balance": ledger.balance(user)}
            )
        seats = table.seats_in_order()
        try:
            with transaction.atomic():
                seat = Seat.objects.create(
                    table=table, position=free_position(table, seats), player=user, ready=True
                )
        except IntegrityError:
            raise lost_race(user, table.pk) from None
        seats.append(seat)
        arm_start(table, seats)
        after_commit_table_changed(table.pk)
    return seat


def lost_race(user: User, table_id: int) -> GameError:
    """What a player reads when a seat they were given went first to another request: their
    own (a double click reads as the second click does), or someone else's."""
    other = Seat.objects.filter(player=user).select_related("table").first()
    if other is None:
        return GameError(_("That seat was just taken; try again."))
    if other.table_id == table_id:
        return GameError(_("You already sit at this table."))
    return seated_elsewhere(other)


def seated_elsewhere(seat: Seat) -> SeatedElsewhere:
    """One seat per player: what they read when they try to sit somewhere else."""
    names = {"name": seat.table.title}
    if seat.table.status != Table.Status.PLAYING:
        message = _("You already sit at the table “%(name)s”; leave it first.") % names
    elif seat.left:
        message = (
            _("The autopilot plays your seat at the table “%(name)s” until its game ends.") % names
        )
    else:
        message = _("You play at the table “%(name)s”: finish that game first.") % names
    return SeatedElsewhere(
        message, seat.table_id, may_leave=seat.table.status != Table.Status.PLAYING
    )


def add_bot(table_id: int, user: User, level: str = BotLevel.EASY) -> Seat:
    if level not in BotLevel.values:
        raise GameError(_("Unknown bot level."))
    with transaction.atomic():
        table = locked_table(table_id)
        seats = table.seats_in_order()
        if table.host_id(seats) != user.pk:
            raise GameError(_("Only the host may add bots."))
        if not table.bots_allowed:
            raise GameError(_("Bots are not allowed at this table."))
        if table.status != Table.Status.OPEN:
            raise GameError(_("A game is being played at this table; wait for it to end."))
        seat = Seat.objects.create(
            table=table, position=free_position(table, seats), bot_level=level, ready=True
        )
        seats.append(seat)
        arm_start(table, seats)
        after_commit_table_changed(table.pk)
    return seat


def remove_bot(table_id: int, user: User, position: int) -> None:
    with transaction.atomic():
        table = locked_table(table_id)
        if table.host_id(table.seats_in_order()) != user.pk:
            raise GameError(_("Only the host may remove bots."))
        if table.status != Table.Status.OPEN:
            raise GameError(_("A game is being played at this table; wait for it to end."))
        deleted, _kinds = Seat.objects.filter(
            table=table, position=position, player__isnull=True
        ).delete()
        if not deleted:
            raise GameError(_("There is no bot in that seat."))
        arm_start(table, table.seats_in_order())
        after_commit_table_changed(table.pk)


def leave(table_id: int, user: User) -> None:
    with transaction.atomic():
        table = locked_table(table_id)
        seat = Seat.objects.filter(table=table, player=user).first()
        if seat is None:
            raise GameError(_("You do not sit at this table."))
        if table.status == Table.Status.PLAYING:
            seat.left = True
            seat.save(update_fields=["left"])
            game = table.games.filter(status=Game.Status.RUNNING).first()
            if game is not None:
                play.schedule_autopilot_now(game.pk)
        else:
            free_seat(table, seat)
        after_commit_table_changed(table.pk)


def free_seat(table: Table, seat: Seat) -> None:
    """A person stands up between games; bots do not keep a table without people."""
    seat.delete()
    remaining = table.seats_in_order()
    if not any(not s.is_bot for s in remaining):
        Seat.objects.filter(table=table).delete()
        remaining = []
    arm_start(table, remaining)


def stand_up(seat_id: int, now: float | None = None) -> bool:
    """Stand up a player whose grace after a game ran out (see games.table.standup); whether it
    happened (a second scheduler, or a player back in time, finds nothing to do)."""
    now = clock.now() if now is None else now
    found = Seat.objects.filter(pk=seat_id).values_list("table_id", flat=True).first()
    if found is None:
        return False
    with transaction.atomic():
        table = locked_table(found)
        seat = (
            Seat.objects.filter(
                pk=seat_id, release_at__lte=clock.to_datetime(now), table__status=Table.Status.OPEN
            )
            .select_related("player")
            .first()
        )
        if seat is None or seat.player is None:
            return False
        player = seat.player
        free_seat(table, seat)
        after_commit_table_changed(table.pk)
    with translation.override(player.language or settings.LANGUAGE_CODE):
        reason = _("You were stood up from this table: you were not here after the game.")
        after_commit_unseated(table.pk, player.pk, reason)
    return True


def play_again(table_id: int, user: User) -> None:
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.OPEN:
            raise GameError(_("The game is still running."))
        updated = Seat.objects.filter(table=table, player=user).update(
            ready=True, away=False, release_at=None
        )
        if not updated:
            raise GameError(_("You do not sit at this table."))
        arm_start(table, table.seats_in_order())
        after_commit_table_changed(table.pk)


def arm_start(table: Table, seats: list[Seat]) -> None:
    """A game starts 3 s after the last seat is filled and every person is ready, unless the
    staff paused new games or locked the table."""
    fairness.commit(table)
    ready = (
        len(seats) == table.seats
        and all(s.is_bot or s.ready for s in seats)
        and gates.gate().hold(table.pk) is None
    )
    starts_at = clock.to_datetime(clock.now() + START_DELAY) if ready else None
    if ready and table.starts_at is not None:
        return
    if table.starts_at != starts_at:
        table.starts_at, table.busy_until = starts_at, None
        table.save(update_fields=["starts_at", "busy_until"])
        if starts_at is not None:
            after_commit_deadline(clock.to_seconds(starts_at))


def close_table(table_id: int) -> None:
    """An admin closes a table: its seats empty and it leaves the lobby."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status == Table.Status.PLAYING:
            raise GameError(_("A game is running at this table: stop it first."))
        table.status = Table.Status.CLOSED
        table.starts_at = None
        table.save(update_fields=["status", "starts_at"])
        Seat.objects.filter(table=table).delete()
        after_commit_table_changed(table_id)
