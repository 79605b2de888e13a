"""Pages about games that are over: the history list, exports, replays, practice."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from durak_site import throttle
from durak_site.requests import PlayerRequest
from games.errors import GameError, SeatedElsewhere
from games.forms import PracticeForm
from games.models import Game
from games.records import export, history, practice, table_talk, uploads, viewer
from games.records.record_shape import Unreadable
from games.records.replay import Mismatch
from games.table import fairness


@login_required
def history_page(request: PlayerRequest) -> HttpResponse:
    name = request.GET.get("player", "")
    player = request.user
    if name and name != request.user.username:
        player = get_object_or_404(User, username=name)
    own = player.pk == request.user.pk
    form = history.HistoryFilter(request.GET, history.stakes_played(player))
    games = history.games_of(player, public_only=not own)
    terms = form.cleaned_data if form.is_valid() else {}
    page = Paginator(history.filtered(games, player, terms), history.PER_PAGE).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "games/history_list.html",
        {
            "player": player,
            "own": own,
            "form": form,
            "page": page,
            "rows": history.rows(list(page.object_list), player),
            "query": query.urlencode(),
        },
    )


def finished_game(request: HttpRequest, pk: int) -> Game:
    """A game the reader may see; a running one only through its table (404 here)."""
    game = get_object_or_404(Game.objects.select_related("table"), pk=pk)
    if not history.visible_to(game, request.user):
        raise Http404
    return game


def export_json(request: HttpRequest, pk: int) -> HttpResponse:
    game = finished_game(request, pk)
    try:
        record = export.export(game)
    except export.NotExportable as refusal:
        return HttpResponse(str(refusal), status=409, content_type="text/plain; charset=utf-8")
    response = JsonResponse(record, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="durak-game-{game.pk}.json"'
    return response


def seat_asked(request: HttpRequest, players: int) -> int | None:
    return viewer.seat_named(request.GET.get("seat", viewer.OPEN), players)


def replay_json(request: HttpRequest, pk: int) -> HttpResponse:
    game = finished_game(request, pk)
    if game.status == Game.Status.RUNNING:
        raise Http404
    try:
        record = export.export(game)
        frames = viewer.frames(record, seat_asked(request, len(record["players"])))
        frames["log"] = table_talk.talk().in_replay(frames["log"], game, request.user)
        return JsonResponse(frames)
    except ValueError:
        return JsonResponse({"error": _("There is no such seat.")}, status=400)
    except (export.NotExportable, Mismatch) as refusal:
        return JsonResponse({"error": str(refusal)}, status=409)


def replay_file(request: HttpRequest) -> HttpResponse:
    """The replay viewer for an exported file, which the page sends to ``replay_frames``."""
    return render(request, "games/replay_file.html", {"labels": viewer.labels(), "players": []})


@require_POST
def replay_frames(request: HttpRequest) -> HttpResponse:
    """The steps of an uploaded export, once it verifies; nothing is stored."""
    if not throttle.allows(uploads.UPLOADS, request):
        message = _("Too many files from your address: wait a minute.")
        return JsonResponse({"error": message}, status=429)
    try:
        return JsonResponse(uploads.frames(request.body, request.GET.get("seat", viewer.OPEN)))
    except Unreadable:
        return JsonResponse({"error": _("This file is not an exported game.")}, status=400)
    except Mismatch as difference:
        message = _("This file does not verify: %(difference)s") % {"difference": difference}
        return JsonResponse({"error": message}, status=400)
    except ValueError:
        return JsonResponse({"error": _("There is no such seat.")}, status=400)


@require_POST
@login_required
def contribute_seed(request: PlayerRequest, pk: int) -> HttpResponse:
    try:
        fairness.contribute(
            pk, request.user, request.POST.get("seed", ""), request.POST.get("commitment", "")
        )
    except fairness.SeedRefused as refusal:
        return JsonResponse({"error": str(refusal)}, status=400)
    return JsonResponse({"ok": True})


@require_POST
@login_required
def practise(request: PlayerRequest, pk: int) -> HttpResponse:
    game = finished_game(request, pk)
    form = PracticeForm(request.POST)
    try:
        if not form.is_valid():
            raise GameError(_("Choose a seat and the bots' level."))
        chosen = form.cleaned_data
        table = practice.practise(
            game, request.user, chosen["seat"], chosen["level"], leave=chosen["leave"]
        )
    except SeatedElsewhere as refusal:
        said = render_to_string(
            "games/fragments/practice_elsewhere.html",
            {"refusal": refusal, "game": game, "chosen": form.cleaned_data},
            request=request,
        )
        messages.error(request, mark_safe(said.strip()))
        return redirect("game_history", pk=pk)
    except GameError as refusal:
        messages.error(request, str(refusal))
        return redirect("game_history", pk=pk)
    return redirect(table)
