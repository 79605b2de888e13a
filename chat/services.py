"""Everything that changes the chat: posting, muting for oneself, and the staff's hides and
site-wide mutes. Each change is its own short transaction and never touches a game row."""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from chat import broadcast
from chat.models import MAX_LENGTH, Message, Mute, SiteMute
from chat.mutes import may_write, site_mute_notice, site_mute_of
from chat.reactions import REACTIONS
from games.models import Game, Seat, Table
from staff import audit
from staff.models import StaffAction

REASON_LENGTH = 200


class ChatRefused(Exception):
    """Nothing was changed; the text says why, in the player's language."""


def clean_text(text: str) -> str:
    """One line of plain text: control characters become spaces, and the invisible ones
    (Unicode's format characters: direction marks and overrides, zero-width spaces and
    joiners, the byte order mark) are removed, so no text imitates another."""
    kept = []
    for char in text.replace("\r\n", " "):
        kind = unicodedata.category(char)
        if kind != "Cf":
            kept.append(" " if kind == "Cc" else char)
    return " ".join("".join(kept).split())


def post(table_id: int, user: Any, *, text: str = "", reaction: str = "") -> Message:
    """Say something at a table (or send a quick reaction); everyone there sees it."""
    if user is None or not user.is_authenticated:
        raise ChatRefused(_("Log in to write in the chat."))
    table = Table.objects.exclude(status=Table.Status.CLOSED).filter(pk=table_id).first()
    if table is None:
        raise ChatRefused(_("There is no such table."))
    seat = Seat.objects.filter(table=table, player=user).values_list("position", flat=True).first()
    if not may_write(table, seat):
        raise ChatRefused(_("Spectators may only read the chat at this table."))
    mute = site_mute_of(user)
    if mute is not None:
        raise ChatRefused(site_mute_notice(mute))
    if reaction:
        if reaction not in REACTIONS:
            raise ChatRefused(_("There is no such quick reaction."))
        kind, body = Message.Kind.REACTION, reaction
    else:
        kind, body = Message.Kind.TEXT, clean_text(text)
        if not body:
            raise ChatRefused(_("Write something first."))
        if len(body) > MAX_LENGTH:
            raise ChatRefused(
                _("A chat message is at most %(limit)s characters; this one has %(count)s.")
                % {"limit": MAX_LENGTH, "count": len(body)}
            )
    game = current_game(table)
    with transaction.atomic():
        message = Message.objects.create(
            table=table,
            game=game,
            after_seq=game.event_seq if game is not None else 0,
            author=user,
            seat=seat,
            kind=kind,
            text=body,
        )
        transaction.on_commit(lambda: broadcast.posted(message))
    return message


def current_game(table: Table) -> Game | None:
    """The game a line belongs to: the one running, else the last one (a "well played" after
    the end belongs to the game it is about)."""
    return table.games.only("id", "event_seq").order_by("-started_at", "-id").first()


def mute(user: Any, player_id: int) -> None:
    """From now on `user` does not see `player_id`'s lines, at any table."""
    if user is None or not user.is_authenticated:
        raise ChatRefused(_("Log in to mute a player."))
    if player_id == user.pk:
        raise ChatRefused(_("You cannot mute yourself."))
    if not get_user_model().objects.filter(pk=player_id).exists():
        raise ChatRefused(_("There is no such player."))
    with transaction.atomic():
        Mute.objects.get_or_create(player_id=user.pk, muted_id=player_id)
        transaction.on_commit(lambda: broadcast.mutes_changed(user.pk))


def unmute(user: Any, player_id: int) -> None:
    if user is None or not user.is_authenticated:
        raise ChatRefused(_("Log in to mute a player."))
    with transaction.atomic():
        Mute.objects.filter(player_id=user.pk, muted_id=player_id).delete()
        transaction.on_commit(lambda: broadcast.mutes_changed(user.pk))


def staff_reason(staff: Any, reason: str) -> str:
    if staff is None or not staff.is_authenticated or not staff.is_staff:
        raise ChatRefused(_("Only the staff may do that."))
    reason = clean_text(reason)
    if not reason:
        raise ChatRefused(_("Give a reason: it is kept in the record."))
    if len(reason) > REASON_LENGTH:
        raise ChatRefused(
            _("The reason is at most %(limit)s characters.") % {"limit": REASON_LENGTH}
        )
    return reason


def hide(staff: Any, message_id: int, reason: str, *, table_id: int | None = None) -> Message:
    """The staff take a line out of the chat for everyone (it stays in the record)."""
    reason = staff_reason(staff, reason)
    lines = Message.objects.filter(pk=message_id)
    if table_id is not None:
        lines = lines.filter(table_id=table_id)
    with transaction.atomic():
        message = (
            lines.select_related("table", "game", "author").select_for_update(of=("self",)).first()
        )
        if message is None:
            raise ChatRefused(_("There is no such chat message."))
        if message.hidden:
            raise ChatRefused(_("That message is already hidden."))
        message.hidden_at = timezone.now()
        message.hidden_by = staff
        message.hidden_reason = reason
        message.save(update_fields=["hidden_at", "hidden_by", "hidden_reason"])
        audit.record(
            staff,
            StaffAction.Kind.HIDE_CHAT,
            reason,
            table=message.table,
            game=message.game,
            player=message.author,
            message=message.pk,
            text=message.text,
        )
        transaction.on_commit(lambda: broadcast.hidden(message))
    return message


def mute_site_wide(staff: Any, player: Any, reason: str, until: datetime | None = None) -> SiteMute:
    """The staff silence a player at every table until `until` (or until lifted)."""
    reason = staff_reason(staff, reason)
    if player.pk == staff.pk:
        raise ChatRefused(_("You cannot mute yourself."))
    if until is not None and until <= timezone.now():
        raise ChatRefused(_("The end of a mute must be in the future."))
    with transaction.atomic():
        made = SiteMute.objects.create(player=player, by=staff, reason=reason, until=until)
        audit.record(
            staff,
            StaffAction.Kind.MUTE_CHAT,
            reason,
            player=player,
            mute=made.pk,
            until=until.isoformat() if until is not None else None,
        )
    return made


def lift_site_mute(staff: Any, site_mute: SiteMute, reason: str) -> None:
    reason = staff_reason(staff, reason)
    with transaction.atomic():
        lifted = SiteMute.objects.filter(pk=site_mute.pk, lifted_at__isnull=True).update(
            lifted_at=timezone.now(), lifted_by=staff
        )
        if not lifted:
            raise ChatRefused(_("That mute was already lifted."))
        audit.record(
            staff, StaffAction.Kind.UNMUTE_CHAT, reason, player=site_mute.player, mute=site_mute.pk
        )
