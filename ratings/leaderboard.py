"""The public leaderboard: by rating, by net chips and by win rate, over a period."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Transfer
from games.models import Game, GamePlayer
from ratings.models import Rating
from ratings.skill import PROVISIONAL_GAMES, Skill
from ratings.statistics import GAME_KINDS

MIN_GAMES = 5
"""Games a player needs in the period to be ranked by rating or by win rate."""
ROWS = 50


class Board(StrEnum):
    RATING = "rating"
    CHIPS = "chips"
    WIN_RATE = "win-rate"

    @property
    def label(self) -> str:
        labels = {"rating": _("Rating"), "chips": _("Net chips"), "win-rate": _("Win rate")}
        return str(labels[self])


class Period(StrEnum):
    WEEK = "week"
    MONTH = "month"
    ALL = "all"

    @property
    def label(self) -> str:
        return str({"week": _("This week"), "month": _("This month"), "all": _("All time")}[self])

    def start(self, now: datetime) -> datetime | None:
        """The period's first moment in the site's time zone; None for all time."""
        local = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
        if self == Period.WEEK:
            return local - timedelta(days=local.weekday())
        if self == Period.MONTH:
            return local.replace(day=1)
        return None


@dataclass(frozen=True)
class Row:
    place: int
    name: str
    player_id: int | None
    value: str
    games: int
    provisional: bool = False


def leaderboard(board: Board, period: Period, now: datetime | None = None) -> list[Row]:
    since = period.start(now or timezone.now())
    if board == Board.CHIPS:
        return _by_chips(since)
    if board == Board.WIN_RATE:
        return _by_win_rate(since)
    return _by_rating(since)


def _finished_seats(since: datetime | None) -> QuerySet[GamePlayer]:
    seats = GamePlayer.objects.filter(
        player__isnull=False, game__status=Game.Status.FINISHED, game__practice_of__isnull=True
    )
    if since is not None:
        seats = seats.filter(game__finished_at__gte=since)
    return seats


def _bot_games(since: datetime | None) -> dict[str, int]:
    """Finished games in the period of each bot level with at least ``MIN_GAMES`` of them."""
    seats = GamePlayer.objects.filter(player__isnull=True, game__status=Game.Status.FINISHED)
    if since is not None:
        seats = seats.filter(game__finished_at__gte=since)
    return dict(
        seats.values("bot_level")
        .annotate(games=Count("game", distinct=True))
        .filter(games__gte=MIN_GAMES)
        .values_list("bot_level", "games")
    )


def _by_rating(since: datetime | None) -> list[Row]:
    """Players and bot levels with at least ``MIN_GAMES`` finished games in the period, by
    their rating now (the bot levels stand among the people as landmarks)."""
    played = dict(
        _finished_seats(since)
        .values("player")
        .annotate(games=Count("pk"))
        .filter(games__gte=MIN_GAMES)
        .values_list("player", "games")
    )
    bots = _bot_games(since)
    ratings = list(
        Rating.objects.filter(Q(player__in=played) | Q(player=None, bot_level__in=bots))
        .select_related("player")
        .order_by("-mu", "sigma", "pk")
    )
    rows = []
    for place, rating in enumerate(ratings[:ROWS], start=1):
        skill = Skill(rating.mu, rating.sigma)
        value = f"{skill.points} ± {skill.margin}"
        if rating.player is None:
            name = str(_("%(level)s bot") % {"level": rating.get_bot_level_display()})
            rows.append(Row(place, name.capitalize(), None, value, bots[rating.bot_level]))
            continue
        rows.append(
            Row(
                place,
                rating.player.username,
                rating.player.pk,
                value,
                played[rating.player.pk],
                provisional=rating.games < PROVISIONAL_GAMES,
            )
        )
    return rows


def _by_chips(since: datetime | None) -> list[Row]:
    moves = Transfer.objects.filter(kind__in=GAME_KINDS)
    if since is not None:
        moves = moves.filter(created_at__gte=since)
    incoming = moves.filter(destination__user__isnull=False).values_list(
        "destination__user", "destination__user__username", "amount"
    )
    outgoing = moves.filter(source__user__isnull=False).values_list(
        "source__user", "source__user__username", "amount"
    )
    net: dict[tuple[int, str], int] = {}
    for user, name, amount in incoming:
        net[(user, name)] = net.get((user, name), 0) + amount
    for user, name, amount in outgoing:
        net[(user, name)] = net.get((user, name), 0) - amount
    games = dict(
        _finished_seats(since).values("player").annotate(n=Count("pk")).values_list("player", "n")
    )
    ordered = sorted(net.items(), key=lambda item: (-item[1], item[0][1]))[:ROWS]
    return [
        Row(place, name, user, f"{chips:+,}".replace(",", "\u202f"), games.get(user, 0))
        for place, ((user, name), chips) in enumerate(ordered, start=1)
    ]


def _by_win_rate(since: datetime | None) -> list[Row]:
    counts = (
        _finished_seats(since)
        .values("player", "player__username")
        .annotate(games=Count("pk"), first=Count("pk", filter=Q(place=1)))
        .filter(games__gte=MIN_GAMES)
    )
    ordered = sorted(
        counts, key=lambda c: (-c["first"] / c["games"], -c["games"], c["player__username"])
    )[:ROWS]
    return [
        Row(
            place,
            c["player__username"],
            c["player"],
            f"{round(100 * c['first'] / c['games'])}%",
            c["games"],
        )
        for place, c in enumerate(ordered, start=1)
    ]
