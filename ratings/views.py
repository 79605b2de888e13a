from __future__ import annotations

from typing import TypeVar

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ratings.leaderboard import MIN_GAMES, Board, Period, leaderboard

Choice = TypeVar("Choice", Board, Period)


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    board = _choice(Board, request.GET.get("by", ""), Board.RATING)
    period = _choice(Period, request.GET.get("period", ""), Period.ALL)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "board": board,
            "period": period,
            "boards": list(Board),
            "periods": list(Period),
            "rows": leaderboard(board, period),
            "min_games": MIN_GAMES,
            "me": request.user.pk if request.user.is_authenticated else None,
        },
    )


def _choice(kind: type[Choice], value: str, default: Choice) -> Choice:
    try:
        return kind(value)
    except ValueError:
        return default
