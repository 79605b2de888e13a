"""A game the staff stopped: the words every page uses for it, and the stakes it returned.

The table, the history and the receipt all show a stopped game through `summary`, so a
stopped game never reads as a draw and never shows places or payouts.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from accounts.models import Transfer
from games.models import Game, GamePlayer

STOPPED_BY_STAFF = _("Stopped by the staff: every stake returned")


@dataclass(frozen=True)
class Refund:
    player: GamePlayer
    amount: int


@dataclass(frozen=True)
class Stopped:
    game: Game
    headline: str
    refunds: list[Refund]

    @property
    def returned(self) -> int:
        return sum(refund.amount for refund in self.refunds)


def is_stopped(game: Game) -> bool:
    return game.status == Game.Status.ABORTED


def refunds(game: Game) -> list[Refund]:
    """Each seat of the game with the chips the ledger gave back to it."""
    paid = dict(
        Transfer.objects.filter(game_id=game.pk, kind=Transfer.Kind.REFUND).values_list(
            "seat", "amount"
        )
    )
    players = game.players.select_related("player").order_by("seat")
    return [Refund(player, paid.get(player.seat, 0)) for player in players]


def summary(game: Game | None) -> Stopped | None:
    """What to show for a stopped game; None for any other game."""
    if game is None or not is_stopped(game):
        return None
    return Stopped(game=game, headline=str(STOPPED_BY_STAFF), refunds=refunds(game))
