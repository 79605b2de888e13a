"""What was said at a table, who does not want to hear whom, and whom the staff silenced."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, Table

MAX_LENGTH = 300


class Message(models.Model):
    """One line of a table's chat, kept with the game it was said in (and where in it)."""

    class Kind(models.TextChoices):
        TEXT = "text", _("text")
        REACTION = "reaction", _("quick reaction")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="chat_messages", verbose_name=_("table")
    )
    game = models.ForeignKey(
        Game,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("game"),
        help_text=_("the running game, or the last one played at the table"),
    )
    after_seq = models.PositiveIntegerField(
        _("after event"), default=0, help_text=_("the game's last event when it was said")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("author"),
    )
    seat = models.PositiveSmallIntegerField(
        _("seat"), null=True, blank=True, help_text=_("empty for a spectator")
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.TEXT)
    text = models.CharField(
        _("text"), max_length=MAX_LENGTH, help_text=_("for a quick reaction: its code")
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now)
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("hidden by"),
    )
    hidden_reason = models.CharField(_("reason for hiding"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["table", "id"]
        indexes = [models.Index(fields=["game", "after_seq"], name="chat_message_in_game")]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"

    @property
    def hidden(self) -> bool:
        return self.hidden_at is not None


class Mute(models.Model):
    """A player who does not want to read another player's chat (for themselves only)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_mutes",
        verbose_name=_("player"),
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("muted player"),
    )
    created_at = models.DateTimeField(_("since"), default=timezone.now)

    class Meta:
        verbose_name = _("muted player")
        verbose_name_plural = _("muted players")
        constraints = [
            models.UniqueConstraint(fields=["player", "muted"], name="chat_mute_once"),
            models.CheckConstraint(condition=~Q(player=F("muted")), name="chat_mute_not_self"),
        ]


class SiteMuteQuerySet(models.QuerySet["SiteMute"]):
    def active(self) -> SiteMuteQuerySet:
        now = timezone.now()
        return self.filter(lifted_at__isnull=True).filter(Q(until__isnull=True) | Q(until__gt=now))


class SiteMute(models.Model):
    """The staff silenced a player's chat at every table, with the reason why."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="site_mutes",
        verbose_name=_("player"),
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("muted by"),
    )
    reason = models.CharField(_("reason"), max_length=200)
    created_at = models.DateTimeField(_("since"), default=timezone.now)
    until = models.DateTimeField(
        _("until"), null=True, blank=True, help_text=_("empty: until the staff lift it")
    )
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("lifted by"),
    )

    objects = SiteMuteQuerySet.as_manager()

    class Meta:
        verbose_name = _("site-wide chat mute")
        verbose_name_plural = _("site-wide chat mutes")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="site_mute_has_a_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.reason}"
