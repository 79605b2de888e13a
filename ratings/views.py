from __future__ import annotations

from typing import TypeVar

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render

from games.models import Game
from games.records.history import visible_to
from ratings.leaderboard import MIN_GAMES, Board, Period, leaderboard
from ratings.notes import replay_marks

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


def coach_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The coach's notes of a finished game, for its replay."""
    game = get_object_or_404(Game.objects.select_related("table"), pk=pk)
    if game.status == Game.Status.RUNNING or not visible_to(game, request.user):
        raise Http404
    return JsonResponse({"notes": replay_marks(game)})
