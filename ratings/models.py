"""Skill ratings of players and of the bot levels, and how each rated game moved them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import BotLevel, Game


class Rating(models.Model):
    """The current skill estimate of one player, or of one bot level (every bot of a level
    shares its rating)."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating",
        verbose_name=_("player"),
    )
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel.choices, blank=True)
    mu = models.FloatField(_("skill (mean)"))
    sigma = models.FloatField(_("uncertainty (standard deviation)"))
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.CheckConstraint(
                condition=(Q(player__isnull=False) & Q(bot_level=""))
                | (Q(player__isnull=True) & ~Q(bot_level="")),
                name="rating_of_a_player_or_a_bot_level",
            ),
            models.UniqueConstraint(
                fields=["bot_level"], condition=~Q(bot_level=""), name="rating_one_per_bot_level"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player or self.bot_level}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """What one rated game did to the rating of one seat's player or bot level."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    rating = models.ForeignKey(
        Rating, on_delete=models.CASCADE, related_name="changes", verbose_name=_("rating")
    )
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="rating_change_once_per_seat")
        ]


class CoachReview(models.Model):
    """A finished game the coach has gone through, and what it took."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="coach_review", verbose_name=_("game")
    )
    decisions = models.PositiveIntegerField(_("decisions reviewed"), default=0)
    seconds = models.FloatField(_("seconds taken"), default=0.0)
    reviewed_at = models.DateTimeField(_("reviewed"), auto_now_add=True)

    class Meta:
        verbose_name = _("coach's review")
        verbose_name_plural = _("coach's reviews")

    @property
    def notes_count(self) -> int:
        return self.game.coach_notes.count()


class CoachNote(models.Model):
    """A decision that cost a player more than the coach's margin, with the better move.
    ``played`` and ``better`` are the engine's events of the two actions."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="coach_notes", verbose_name=_("game")
    )
    seq = models.PositiveIntegerField(_("event number of the decision"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    played = models.JSONField(_("move played"))
    better = models.JSONField(_("better move"))
    played_chance = models.FloatField(_("chance of not being the durak after the move played"))
    better_chance = models.FloatField(_("chance of not being the durak after the better move"))
    deals = models.PositiveIntegerField(_("deals tried"))

    class Meta:
        verbose_name = _("coach's note")
        verbose_name_plural = _("coach's notes")
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="coach_note_once")]
