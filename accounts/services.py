"""Creating players, and what their profile pages show about them."""

from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce

from accounts import ledger
from accounts.models import User


@dataclass(frozen=True)
class Statistics:
    played: int
    won: int
    durak: int
    net: int


@transaction.atomic
def create_player(username: str, password: str, email: str = "") -> User:
    user = User.objects.create_user(username=username, password=password, email=email)
    ledger.grant_welcome(user)
    return user


def statistics(user: User) -> Statistics | None:
    """Finished games of a player (a stopped game returned every stake and counts for
    nothing), or None while the site records no games."""
    try:
        game_player = apps.get_model("games", "GamePlayer")
    except LookupError:
        return None
    totals = (
        game_player.objects.filter(player=user, game__finished_at__isnull=False)
        .exclude(game__status="aborted")
        .aggregate(
            played=Count("pk"),
            won=Count("pk", filter=Q(place=1)),
            durak=Count("pk", filter=Q(durak=True)),
            paid=Coalesce(Sum("payout"), 0),
            staked=Coalesce(Sum("stake"), 0),
        )
    )
    return Statistics(
        played=totals["played"],
        won=totals["won"],
        durak=totals["durak"],
        net=totals["paid"] - totals["staked"],
    )
