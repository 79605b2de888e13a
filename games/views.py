"""Thin views: pages, and form posts that hand over to `games.table.tables`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from durak_site import error_pages
from durak_site.requests import HtmxRequest, PlayerRequest
from games import errors, gates
from games.forms import BotForm, QuickPlayForm, SeatForm, TableForm
from games.live import snapshots
from games.models import BotLevel, Game, GameEvent, SeatInfo, Table, seat_infos
from games.picture import movelog, notices, stopped
from games.picture.receipt import receipt
from games.records import history, table_talk, viewer
from games.table import fairness, matchmaking, tables


def lobby(request: HtmxRequest) -> HttpResponse:
    tables = (
        Table.objects.exclude(status=Table.Status.CLOSED)
        .filter(Q(private=False) | Q(seat_set__player=request.user.pk or 0))
        .annotate(taken=Count("seat_set", distinct=True))
        .select_related("creator")
        .order_by("status", "-created_at")[:100]
    )
    template = "games/fragments/lobby_rows.html" if request.htmx else "games/lobby.html"
    return render(
        request,
        template,
        {
            "tables": tables,
            "quick_form": QuickPlayForm(),
            "locked_ids": gates.gate().locked_tables(),
            "paused": gates.gate().paused_words() is not None,
        },
    )


@login_required
def table_new(request: PlayerRequest) -> HttpResponse:
    form = TableForm(request.POST or None, initial={"name": f"{request.user.username}"})
    if request.method == "POST" and form.is_valid():
        try:
            table = tables.create_table(request.user, **form.cleaned_data)
        except errors.SeatedElsewhere as refusal:
            messages.error(request, notices.refusal_html(refusal, request))
        except errors.GameError as refusal:
            form.add_error(None, str(refusal))
        else:
            return redirect(table)
    return render(request, "games/table_new.html", {"form": form})


def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    invite = request.GET.get("invite", "")
    table = Table.objects.filter(pk=pk).first()
    if table is None:
        return error_pages.page(request, 404, _("There is no such table."))
    if table.status == Table.Status.CLOSED:
        return error_pages.page(request, 404, str(snapshots.CLOSED_TABLE))
    entry = snapshots.access(pk, request.user, invite)
    if entry.refusal is not None:
        return error_pages.page(request, 403, str(entry.refusal))
    return render(
        request,
        "games/table.html",
        {
            "table": table,
            "invite": invite,
            "snapshot": snapshots.render(pk, entry.seat).html,
            "seat": entry.seat,
            "invite_url": request.build_absolute_uri(
                f"{table.get_absolute_url()}?invite={table.invite_code}"
            )
            if table.private and entry.seat is not None
            else "",
        },
    )


def answer(
    request: HtmxRequest, table_id: int, action: Callable[[], Any], then: str = ""
) -> HttpResponse:
    """Carry out a table action; htmx gets a notice fragment (or goes on to `then`),
    a plain post a redirect."""
    try:
        action()
    except errors.GameError as refusal:
        said = notices.refusal_html(refusal, request)
        if request.htmx:
            return HttpResponse(notices.render_notice(said, oob=False), status=200)
        messages.error(request, said)
        return redirect("table", pk=table_id)
    if request.htmx:
        if then:
            return HttpResponseClientRedirect(then)
        return HttpResponse(notices.render_notice("", level="info", oob=False))
    return redirect(then or reverse("table", args=[table_id]))


@require_POST
@login_required
def join(request: PlayerRequest, pk: int) -> HttpResponse:
    invite = request.POST.get("invite", "")
    then = reverse("table", args=[pk]) if request.POST.get("then") == "table" else ""
    return answer(request, pk, lambda: tables.join(pk, request.user, invite_code=invite), then=then)


@require_POST
@login_required
def leave(request: PlayerRequest, pk: int) -> HttpResponse:
    return answer(request, pk, lambda: tables.leave(pk, request.user), then=reverse("lobby"))


@require_POST
@login_required
def add_bot(request: PlayerRequest, pk: int) -> HttpResponse:
    form = BotForm(request.POST or {"level": BotLevel.EASY})
    level = form.cleaned_data["level"] if form.is_valid() else "invalid"
    return answer(request, pk, lambda: tables.add_bot(pk, request.user, level))


@require_POST
@login_required
def remove_bot(request: PlayerRequest, pk: int) -> HttpResponse:
    form = SeatForm(request.POST)
    position = form.cleaned_data["position"] if form.is_valid() else -1
    return answer(request, pk, lambda: tables.remove_bot(pk, request.user, position))


@require_POST
@login_required
def play_again(request: PlayerRequest, pk: int) -> HttpResponse:
    return answer(request, pk, lambda: tables.play_again(pk, request.user))


@require_POST
@login_required
def quick_play(request: PlayerRequest) -> HttpResponse:
    form = QuickPlayForm(request.POST)
    stake = form.cleaned_data.get("stake") or 0 if form.is_valid() else 0
    try:
        table = matchmaking.quick_play(request.user, stake)
    except errors.GameError as refusal:
        messages.error(request, notices.refusal_html(refusal, request))
        return redirect("lobby")
    paused = gates.gate().paused_words()
    if paused is not None:
        messages.info(request, paused)
    return redirect(table)


def game_history(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("table"), pk=pk)
    if not history.visible_to(game, request.user):
        return error_pages.page(request, 403, str(snapshots.PRIVATE_TABLE))
    players = list(game.players.select_related("player").order_by("seat"))
    infos = seat_infos(players)
    events = list(game.events.order_by("seq"))
    finished = game.status != Game.Status.RUNNING
    return render(
        request,
        "games/history.html",
        {
            "game": game,
            "players": players,
            "lines": transcript(game, events, infos, request.user) if finished else [],
            "receipt": receipt(game) if game.status == Game.Status.FINISHED else None,
            "stopped": stopped.summary(game),
            "finished": finished,
            "fair": fairness.revealed(game),
            "labels": viewer.labels(),
            "bot_levels": BotLevel.choices,
        },
    )


def transcript(
    game: Game, events: Sequence[GameEvent], seats: Sequence[SeatInfo], reader: Any
) -> list[dict[str, Any]]:
    """The history page's log: each move's line, with what was said at the table among them."""
    moves = [
        {"seq": event.seq, "text": text}
        for event in events
        for text in movelog.log_entries([event.data], seats, None)
    ]
    return table_talk.talk().among_moves(game, moves, reader)
