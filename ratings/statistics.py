"""A player's record, from the games they finished and the chips their wallet moved for games.

Games stopped by the staff (every stake returned) are counted apart: they are neither won
nor lost, and their refunds cancel their stakes in the net chips."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from accounts import ledger
from accounts.models import Transfer, User
from games.models import Game, GameEvent, GamePlayer

GAME_KINDS = (Transfer.Kind.STAKE, Transfer.Kind.PAYOUT, Transfer.Kind.REFUND)


@dataclass(frozen=True)
class Record:
    played: int
    first_places: int
    durak: int
    draws: int
    stopped: int
    net_chips: int
    transfers: int
    cards_taken: int
    average_place: dict[int, float] = field(default_factory=dict)
    """Players at the table -> the player's average place in such games."""

    @property
    def win_rate(self) -> float | None:
        return self.first_places / self.played if self.played else None


def record_of(user: User) -> Record:
    seats = GamePlayer.objects.filter(player=user)
    finished = seats.filter(game__status=Game.Status.FINISHED)
    totals = finished.aggregate(
        played=Count("pk"),
        first=Count("pk", filter=Q(place=1)),
        durak=Count("pk", filter=Q(durak=True)),
    )
    draws = finished.exclude(game__players__durak=True).count()
    stopped = seats.filter(game__status=Game.Status.ABORTED).count()
    in_finished_games = GameEvent.objects.filter(
        game__status=Game.Status.FINISHED,
        game__players__player=user,
        game__players__seat=F("seat"),
    )
    taken = in_finished_games.filter(type="pick_up").values_list("data", flat=True)
    return Record(
        played=totals["played"],
        first_places=totals["first"],
        durak=totals["durak"],
        draws=draws,
        stopped=stopped,
        net_chips=net_chips(user),
        transfers=in_finished_games.filter(type="transfer").count(),
        cards_taken=sum(len(data.get("cards", ())) for data in taken),
        average_place=average_places(finished),
    )


def net_chips(user: User, since: datetime | None = None) -> int:
    """What the player's stakes, payouts and refunds add up to (grants and adjustments are
    not winnings)."""
    moves = ledger.history(user).filter(kind__in=GAME_KINDS)
    if since is not None:
        moves = moves.filter(created_at__gte=since)
    return int(moves.aggregate(net=Coalesce(Sum("change"), 0))["net"])


def average_places(finished: QuerySet[GamePlayer]) -> dict[int, float]:
    rows = finished.annotate(size=Count("game__players")).values_list("size", "place").order_by()
    places: dict[int, list[int]] = {}
    for size, place in rows:
        if place is not None:
            places.setdefault(size, []).append(place)
    return {size: sum(ps) / len(ps) for size, ps in sorted(places.items())}
