"""What the staff did (the audit trail, never edited) and what they have in force: site
notices, a pause of new games, locked tables."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.append_only import AppendOnly


class StaffAction(AppendOnly):
    """One thing a member of the staff did to a table, a game, a player or the site."""

    class Kind(models.TextChoices):
        STOP_GAME = "stop_game", _("stopped a game")
        CLOSE_TABLE = "close_table", _("closed a table")
        LOCK_TABLE = "lock_table", _("locked a table")
        UNLOCK_TABLE = "unlock_table", _("unlocked a table")
        KICK = "kick", _("removed a player from a table")
        TABLE_NOTICE = "table_notice", _("sent a notice to a table")
        SITE_NOTICE = "site_notice", _("posted a site notice")
        END_SITE_NOTICE = "end_site_notice", _("took down a site notice")
        PAUSE = "pause", _("paused new games")
        RESUME = "resume", _("resumed new games")
        DEACTIVATE = "deactivate", _("deactivated a player")
        REACTIVATE = "reactivate", _("reactivated a player")
        ADJUST_CHIPS = "adjust_chips", _("adjusted a player's chips")
        HIDE_CHAT = "hide_chat", _("hid a chat message")
        MUTE_CHAT = "mute_chat", _("muted a player's chat site-wide")
        UNMUTE_CHAT = "unmute_chat", _("lifted a chat mute")

    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.PROTECT,
        related_name="staff_actions",
    )
    kind = models.CharField(_("action"), max_length=20, choices=Kind.choices, db_index=True)
    reason = models.CharField(_("reason"), max_length=300)
    table = models.ForeignKey(
        "games.Table",
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="staff_actions",
    )
    game = models.ForeignKey(
        "games.Game",
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="staff_actions",
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="staff_actions_on",
    )
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    NEVER_EDITED = "The audit trail is never edited or deleted."

    class Meta:
        verbose_name = _("staff action")
        verbose_name_plural = _("audit trail")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.staff}: {self.get_kind_display()}"


class InForce(models.QuerySet[Any]):
    def in_force(self) -> InForce:
        return self.filter(ended_at__isnull=True)


class Measure(models.Model):
    """Something the staff put in force until they end it."""

    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), on_delete=models.PROTECT, related_name="+"
    )
    started_at = models.DateTimeField(_("since"), default=timezone.now)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("ended by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    ended_at = models.DateTimeField(_("until"), null=True, blank=True)

    objects = InForce.as_manager()

    class Meta:
        abstract = True
        ordering = ["-started_at"]


class SiteNotice(Measure):
    """A banner on every page and every table."""

    text = models.CharField(_("text"), max_length=300)

    class Meta(Measure.Meta):
        verbose_name = _("site notice")
        verbose_name_plural = _("site notices")

    def __str__(self) -> str:
        return self.text


class NewGamesPause(Measure):
    """While one is in force no new game starts anywhere; running games finish."""

    reason = models.CharField(_("reason"), max_length=300)

    class Meta(Measure.Meta):
        verbose_name = _("pause of new games")
        verbose_name_plural = _("pauses of new games")

    def __str__(self) -> str:
        return self.reason


class TableLock(Measure):
    """Nobody new sits down at a locked table and no new game starts there."""

    table = models.ForeignKey(
        "games.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="locks"
    )
    reason = models.CharField(_("reason"), max_length=300)

    class Meta(Measure.Meta):
        verbose_name = _("table lock")
        verbose_name_plural = _("table locks")
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(ended_at__isnull=True), name="one_lock_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.reason}"
