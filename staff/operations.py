"""Every staff action: checked, carried out through the site's own writers, and written to
the audit trail in the same transaction."""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import ledger
from accounts.models import Transfer, User
from games.errors import GameError
from games.live import broadcast, sockets
from games.models import Game, Seat, Table
from games.picture.stopped import STOPPED_BY_STAFF
from games.table import moderation, tables
from staff import audit, live, players
from staff.access import is_staff
from staff.models import NewGamesPause, SiteNotice, StaffAction, TableLock

Kind = StaffAction.Kind
MOST_TEXT = 300
LOCKED = gettext_lazy("The staff locked this table: nobody new may sit down.")
FROM_THE_STAFF = gettext_lazy("From the staff: %(text)s")


class StaffError(Exception):
    """A staff action that cannot be carried out; nothing was changed. The text says why."""


def checked(staff: User, text: str, *, what: str = "") -> str:
    if not is_staff(staff):
        raise StaffError(_("Only the staff may do this."))
    text = (text or "").strip()
    if not text:
        raise StaffError(what or _("Give a reason: it goes into the audit trail."))
    if len(text) > MOST_TEXT:
        raise StaffError(
            _("Keep it under %(count)s characters.") % {"count": MOST_TEXT},
        )
    return text


def table_of(table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise StaffError(_("There is no such table."))
    return table


def game_error(refusal: GameError) -> StaffError:
    return StaffError(str(refusal))


# ---------------------------------------------------------------- tables


def stop_game(staff: User, table_id: int, reason: str) -> Game | None:
    """The running game stops with every stake returned (or a game about to start is
    called off before any stake is taken); the players are told."""
    reason = checked(staff, reason)
    table = table_of(table_id)
    try:
        with transaction.atomic():
            game = moderation.stop(table.pk, reason)
            audit.record(staff, Kind.STOP_GAME, reason, table=table, game=game)
    except GameError as refusal:
        raise game_error(refusal) from None
    tell_table(table.pk, STOPPED_BY_STAFF)
    return game


def close_table(staff: User, table_id: int, reason: str) -> None:
    reason = checked(staff, reason)
    table = table_of(table_id)
    try:
        with transaction.atomic():
            tables.close_table(table.pk)
            TableLock.objects.in_force().filter(table=table).update(
                ended_by=staff, ended_at=timezone.now()
            )
            audit.record(staff, Kind.CLOSE_TABLE, reason, table=table)
    except GameError as refusal:
        raise game_error(refusal) from None


def lock_table(staff: User, table_id: int, reason: str) -> TableLock:
    reason = checked(staff, reason)
    table = table_of(table_id)
    with transaction.atomic():
        if TableLock.objects.in_force().filter(table=table).exists():
            raise StaffError(_("This table is already locked."))
        lock = TableLock.objects.create(table=table, started_by=staff, reason=reason)
        Table.objects.filter(pk=table.pk, starts_at__isnull=False).update(starts_at=None)
        audit.record(staff, Kind.LOCK_TABLE, reason, table=table)
        tables.after_commit_table_changed(table.pk)
    tell_table(table.pk, LOCKED)
    return lock


def unlock_table(staff: User, table_id: int, reason: str) -> None:
    reason = checked(staff, reason)
    table = table_of(table_id)
    with transaction.atomic():
        ended = TableLock.objects.in_force().filter(table=table)
        if not ended.update(ended_by=staff, ended_at=timezone.now()):
            raise StaffError(_("This table is not locked."))
        audit.record(staff, Kind.UNLOCK_TABLE, reason, table=table)
        tables.after_commit_table_changed(table.pk)
    moderation.rearm([table.pk])


def kick(staff: User, table_id: int, position: int, reason: str) -> Seat:
    """Between games the seat is freed; during a game the autopilot takes it."""
    reason = checked(staff, reason)
    table = table_of(table_id)
    seat = Seat.objects.filter(table=table, position=position, player__isnull=False).first()
    player = seat.player if seat is not None else None
    if seat is None or player is None:
        raise StaffError(_("Nobody sits in that seat."))
    told = _("The staff removed you from this table: %(reason)s") % {"reason": reason}
    try:
        with transaction.atomic():
            moderation.unseat(table.pk, player.pk, told)
            audit.record(
                staff,
                Kind.KICK,
                reason,
                table=table,
                game=table.games.filter(status=Game.Status.RUNNING).first(),
                player=player,
                position=position,
            )
    except GameError as refusal:
        raise game_error(refusal) from None
    return seat


def notify_table(staff: User, table_id: int, text: str) -> None:
    text = checked(staff, text, what=_("Write the notice."))
    table = table_of(table_id)
    with transaction.atomic():
        audit.record(staff, Kind.TABLE_NOTICE, text, table=table)
    tell_table(table.pk, FROM_THE_STAFF, text=text)


def tell_table(table_id: int, template: Promise, **values: str) -> None:
    """A notice to everyone at the table, in each one's language, after the commit."""
    transaction.on_commit(lambda: broadcast.table_notice(table_id, template, values))


# ---------------------------------------------------------------- the whole site


def post_site_notice(staff: User, text: str) -> SiteNotice:
    text = checked(staff, text, what=_("Write the notice."))
    with transaction.atomic():
        notice = SiteNotice.objects.create(text=text, started_by=staff)
        audit.record(staff, Kind.SITE_NOTICE, text, notice=notice.pk)
        transaction.on_commit(live.banners_changed)
    return notice


def end_site_notice(staff: User, notice_id: int, reason: str) -> None:
    reason = checked(staff, reason)
    with transaction.atomic():
        notice = SiteNotice.objects.in_force().filter(pk=notice_id).first()
        if notice is None:
            raise StaffError(_("That notice is not shown any more."))
        notice.ended_by, notice.ended_at = staff, timezone.now()
        notice.save(update_fields=["ended_by", "ended_at"])
        audit.record(staff, Kind.END_SITE_NOTICE, reason, notice=notice.pk, text=notice.text)
        transaction.on_commit(live.banners_changed)


def pause_new_games(staff: User, reason: str) -> NewGamesPause:
    reason = checked(staff, reason)
    with transaction.atomic():
        if NewGamesPause.objects.in_force().exists():
            raise StaffError(_("New games are already paused."))
        pause = NewGamesPause.objects.create(started_by=staff, reason=reason)
        counting = Table.objects.filter(status=Table.Status.OPEN, starts_at__isnull=False)
        called_off = list(counting.values_list("pk", flat=True))
        counting.update(starts_at=None)
        audit.record(staff, Kind.PAUSE, reason)
        for table_id in called_off:
            tables.after_commit_table_changed(table_id)
        transaction.on_commit(live.banners_changed)
    return pause


def resume_new_games(staff: User, reason: str) -> None:
    reason = checked(staff, reason)
    with transaction.atomic():
        ended = NewGamesPause.objects.in_force()
        if not ended.update(ended_by=staff, ended_at=timezone.now()):
            raise StaffError(_("New games are not paused."))
        audit.record(staff, Kind.RESUME, reason)
        transaction.on_commit(live.banners_changed)
    moderation.rearm()


# ---------------------------------------------------------------- players


def deactivate(staff: User, player: User, reason: str) -> None:
    """The player is logged out everywhere, refused at login, and their seat goes to the
    autopilot (or is freed between games)."""
    reason = checked(staff, reason)
    if player.pk == staff.pk:
        raise StaffError(_("You cannot deactivate yourself."))
    if not player.is_active:
        raise StaffError(_("%(name)s is already deactivated.") % {"name": player.username})
    seat = Seat.objects.filter(player=player).first()
    told = _("The staff deactivated your account: %(reason)s") % {"reason": reason}
    with transaction.atomic():
        User.objects.filter(pk=player.pk).update(is_active=False)
        if seat is not None:
            moderation.unseat(seat.table_id, player.pk, told)
        ended = players.end_sessions(player)
        transaction.on_commit(
            partial(
                broadcast.send,
                sockets.player_group(player.pk),
                {"type": "player.deactivated", "reason": reason},
            )
        )
        audit.record(
            staff,
            Kind.DEACTIVATE,
            reason,
            player=player,
            table=seat.table if seat is not None else None,
            sessions_ended=ended,
        )
    player.is_active = False


def reactivate(staff: User, player: User, reason: str) -> None:
    reason = checked(staff, reason)
    if player.is_active:
        raise StaffError(_("%(name)s is active.") % {"name": player.username})
    with transaction.atomic():
        User.objects.filter(pk=player.pk).update(is_active=True)
        audit.record(staff, Kind.REACTIVATE, reason, player=player)
    player.is_active = True


def adjust_chips(staff: User, player: User, amount: int, reason: str, key: str) -> Transfer:
    """Chips in (or out, with a negative amount) against the house, through the ledger;
    a wallet never goes below zero, and the same key never adjusts twice."""
    reason = checked(staff, reason)
    full_key = f"staff-adjustment:{key}"
    try:
        with transaction.atomic():
            already = Transfer.objects.filter(key=full_key).exists()
            transfer = ledger.adjust(player, amount, reason, by=staff, key=full_key)
            if not already:
                audit.record(
                    staff,
                    Kind.ADJUST_CHIPS,
                    reason,
                    player=player,
                    amount=amount,
                    transfer=transfer.pk,
                )
    except ledger.LedgerError as refusal:
        raise StaffError(str(refusal)) from None
    return transfer
