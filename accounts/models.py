"""Players, their wallets and the chip ledger's records.

The direction is one way: `games` builds on `accounts` (its players and the ledger),
and the ledger names the games it holds banks and moves chips for with foreign keys to
`games.Game`, so the database checks every reference and a game with chips on record
cannot be deleted. Both apps are always installed together.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.append_only import AppendOnly


class User(AbstractUser):
    """A registered player (or an admin)."""

    show_balance = models.BooleanField(_("show my balance on my public profile"), default=False)
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("the language of the site for this player, remembered across devices"),
    )


class Account(models.Model):
    """Somewhere chips can be: a player's wallet, a game's bank, or the house."""

    class Kind(models.TextChoices):
        WALLET = "wallet", _("wallet")
        BANK = "bank", _("bank")
        HOUSE = "house", _("house")

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="wallet",
    )
    game = models.OneToOneField(
        "games.Game",
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="bank_account",
    )
    balance = models.BigIntegerField(_("balance"), default=0)
    closed = models.BooleanField(_("closed"), default=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="house") | Q(balance__gte=0),
                name="account_only_house_below_zero",
            ),
            models.CheckConstraint(
                condition=Q(kind="wallet", user__isnull=False, game__isnull=True)
                | Q(kind="bank", user__isnull=True, game__isnull=False)
                | Q(kind="house", user__isnull=True, game__isnull=True),
                name="account_owner_matches_kind",
            ),
            models.UniqueConstraint(
                fields=["kind"], condition=Q(kind="house"), name="account_one_house"
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.WALLET:
            return str(_("Wallet of %(player)s") % {"player": self.user})
        if self.kind == self.Kind.BANK:
            return str(_("Bank of game #%(game)s") % {"game": self.game_id})
        return str(_("House"))


class Transfer(AppendOnly):
    """One movement of chips between two accounts. Written once, never changed."""

    class Kind(models.TextChoices):
        GRANT = "grant", _("grant")
        STAKE = "stake", _("stake")
        PAYOUT = "payout", _("payout")
        REFUND = "refund", _("refund")
        ADJUSTMENT = "adjustment", _("adjustment")

    source = models.ForeignKey(
        Account, verbose_name=_("from"), on_delete=models.PROTECT, related_name="debits"
    )
    destination = models.ForeignKey(
        Account, verbose_name=_("to"), on_delete=models.PROTECT, related_name="credits"
    )
    amount = models.PositiveBigIntegerField(_("amount"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    reason = models.CharField(_("reason"), max_length=200)
    game = models.ForeignKey(
        "games.Game",
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="transfers",
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    key = models.CharField(_("idempotency key"), max_length=100, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("made by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    NEVER_EDITED = "Transfers are never edited or deleted: write a correcting transfer."

    class Meta:
        verbose_name = _("transfer")
        verbose_name_plural = _("transfers")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="transfer_amount_positive"),
            models.CheckConstraint(
                condition=~Q(source=models.F("destination")),
                name="transfer_between_two_accounts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount}: {self.source} → {self.destination}"

    @property
    def reason_text(self) -> str:
        """The reason in the reader's language: the site's own transfers are told from their
        kind and game; an adjustment keeps the words the staff typed."""
        said = REASONS.get(self.kind)
        if said is None or (self.game_id is None and self.kind != self.Kind.GRANT):
            return self.reason
        return str(said) % {"game": self.game_id}


REASONS: dict[str, Promise] = {
    Transfer.Kind.GRANT: _("Welcome grant"),
    Transfer.Kind.STAKE: _("Stake for game #%(game)s"),
    Transfer.Kind.PAYOUT: _("Payout of game #%(game)s"),
    Transfer.Kind.REFUND: _("Refund of game #%(game)s"),
}
