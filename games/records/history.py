"""A player's games, found again: ``/history/``, newest first, filtered and paged."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Game, GamePlayer
from games.picture.stopped import STOPPED_BY_STAFF

PER_PAGE = 20
RESULTS = (
    ("", _("any result")),
    ("won", _("first place")),
    ("placed", _("other places")),
    ("durak", _("durak")),
    ("stopped", _("stopped")),
)
PLAYERS = (("", _("any number")), ("2", "2"), ("3", "3"), ("4", "4"))


class HistoryFilter(forms.Form):
    result = forms.ChoiceField(label=_("Result"), choices=RESULTS, required=False)
    players = forms.ChoiceField(label=_("Players"), choices=PLAYERS, required=False)
    stake = forms.ChoiceField(label=_("Stake"), required=False)

    def __init__(self, data: Mapping[str, Any], stakes: list[int]) -> None:
        super().__init__(data)
        stake = self.fields["stake"]
        assert isinstance(stake, forms.ChoiceField)
        stake.choices = [
            ("", _("any stake")),
            ("0", _("free")),
            *((str(stake), str(stake)) for stake in stakes if stake),
        ]


def visible_to(game: Game, user: User | AnonymousUser) -> bool:
    """A public table's games are everybody's; a private table's, its players' and staff's."""
    if not game.table.private or user.is_staff:
        return True
    return user.is_authenticated and game.players.filter(player=user).exists()


def stakes_played(player: User) -> list[int]:
    return sorted(
        set(GamePlayer.objects.filter(player=player).values_list("game__stake", flat=True))
    )


def games_of(player: User, *, public_only: bool = False) -> QuerySet[Game]:
    """Every game ``player`` sat in that is over, newest first."""
    games = (
        Game.objects.filter(pk__in=GamePlayer.objects.filter(player=player).values("game"))
        .exclude(status=Game.Status.RUNNING)
        .select_related("table")
        .order_by("-started_at", "-pk")
    )
    if public_only:
        games = games.filter(table__private=False)
    return games


def filtered(games: QuerySet[Game], player: User, terms: dict[str, str]) -> QuerySet[Game]:
    result = terms.get("result")
    if result == "stopped":
        games = games.filter(status=Game.Status.ABORTED)
    elif result:
        mine = GamePlayer.objects.filter(player=player, game__status=Game.Status.FINISHED)
        if result == "won":
            mine = mine.filter(place=1, durak=False)
        elif result == "durak":
            mine = mine.filter(durak=True)
        else:
            mine = mine.filter(durak=False).exclude(place=1)
        games = games.filter(pk__in=mine.values("game"))
    if terms.get("players"):
        games = games.annotate(seat_count=Count("players", distinct=True)).filter(
            seat_count=int(terms["players"])
        )
    if terms.get("stake"):
        games = games.filter(stake=int(terms["stake"]))
    return games


@dataclass(frozen=True)
class Row:
    game: Game
    players: list[GamePlayer]
    mine: GamePlayer
    stopped: bool

    @property
    def duration(self) -> timedelta | None:
        if self.game.finished_at is None:
            return None
        return self.game.finished_at - self.game.started_at

    @property
    def stopped_text(self) -> str:
        return str(STOPPED_BY_STAFF)

    @property
    def net(self) -> int:
        returned = self.mine.stake if self.stopped else self.mine.payout or 0
        return returned - self.mine.stake


def rows(games: list[Game], player: User) -> list[Row]:
    seated: dict[int, list[GamePlayer]] = {}
    for entry in (
        GamePlayer.objects.filter(game__in=games).select_related("player").order_by("seat")
    ):
        seated.setdefault(entry.game_id, []).append(entry)
    return [
        Row(
            game=game,
            players=sorted(seated[game.pk], key=lambda p: (p.place or 99, p.seat)),
            mine=next(p for p in seated[game.pk] if p.player_id == player.pk),
            stopped=game.status == Game.Status.ABORTED,
        )
        for game in games
    ]
