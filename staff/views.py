"""Thin views for the staff: pages that read, and posts that hand over to `operations`."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts import ledger
from durak_site.requests import PlayerRequest
from games import clock
from staff import abuse, actions, audit, controlroom, operations, players
from staff.access import View, staff_only
from staff.forms import AdjustChipsForm
from staff.models import NewGamesPause, SiteNotice, StaffAction

AUDIT_PER_PAGE = 50


@staff_only
def control_room(request: HttpRequest) -> HttpResponse:
    shown = request.GET.get("show", "all")
    sort = request.GET.get("sort", "late")
    return render(
        request,
        "staff/tables.html",
        {
            "rows": controlroom.rows(shown, sort),
            "section": "tables",
            "filter_choices": controlroom.FILTERS.items(),
            "sort_choices": controlroom.SORT_LABELS.items(),
            "shown": shown if shown in controlroom.FILTERS else "all",
            "sort": sort if sort in controlroom.SORTS else "late",
            "stuck_after": int(controlroom.STUCK_AFTER),
            "now_ms": int(clock.now() * 1000),
            "actions": audit.recent(),
            "notices": SiteNotice.objects.in_force().select_related("started_by"),
            "pause": NewGamesPause.objects.in_force().select_related("started_by").first(),
        },
    )


def staff_post(action: actions.Action) -> View:
    """A staff action posted from a form; back to where the staff member was, with a
    message saying what happened or why nothing did."""

    @require_POST
    @staff_only
    def view(request: PlayerRequest, **url: Any) -> HttpResponse:
        try:
            messages.success(request, action.perform(request.user, request.POST, **url))
        except operations.StaffError as refusal:
            messages.error(request, str(refusal))
        back = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(back, {request.get_host()}):
            back = ""
        return redirect(back or reverse("staff_tables"))

    return view


stop = staff_post(actions.TABLE["stop"])
close = staff_post(actions.TABLE["close"])
lock = staff_post(actions.TABLE["lock"])
unlock = staff_post(actions.TABLE["unlock"])
kick = staff_post(actions.TABLE["kick"])
table_notice = staff_post(actions.TABLE["notice"])
site_notice = staff_post(actions.SITE["notice"])
end_site_notice = staff_post(actions.SITE["end-notice"])
pause = staff_post(actions.SITE["pause"])
resume = staff_post(actions.SITE["resume"])
deactivate = staff_post(actions.PLAYER["deactivate"])
reactivate = staff_post(actions.PLAYER["reactivate"])
adjust = staff_post(actions.PLAYER["adjust"])


@staff_only
def player_list(request: HttpRequest) -> HttpResponse:
    text = request.GET.get("q", "")
    return render(
        request,
        "staff/players.html",
        {"players": players.search(text), "query": text, "section": "players"},
    )


@staff_only
def player(request: HttpRequest, pk: int) -> HttpResponse:
    someone = actions.person(pk)
    entries = Paginator(ledger.history(someone), AUDIT_PER_PAGE)
    return render(
        request,
        "staff/player.html",
        {
            "section": "players",
            "person": someone,
            "balance": ledger.balance(someone),
            "seat": someone.seats.select_related("table").first(),
            "games": players.games(someone),
            "entries": entries.get_page(request.GET.get("page")),
            "visits": players.visits(someone),
            "live_sessions": len(players.live_sessions(someone)),
            "actions": players.actions_on(someone),
            "adjust_form": AdjustChipsForm(initial={"key": uuid.uuid4()}),
        },
    )


@staff_only
def audit_trail(request: HttpRequest) -> HttpResponse:
    actions = StaffAction.objects.select_related("staff", "table", "game", "player")
    kind = request.GET.get("kind", "")
    if kind in StaffAction.Kind.values:
        actions = actions.filter(kind=kind)
    page = Paginator(actions, AUDIT_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "staff/audit.html",
        {"page": page, "kind": kind, "kinds": StaffAction.Kind.choices, "section": "audit"},
    )


@staff_only
def signals(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "staff/signals.html",
        {
            "section": "signals",
            "signals": abuse.signals(),
            "farming_min_games": abuse.FARMING_MIN_GAMES,
            "farming_lopsided": int(abuse.FARMING_LOPSIDED * 100),
            "timeouts_min_games": abuse.TIMEOUTS_MIN_GAMES,
            "timeouts_per_game": abuse.TIMEOUTS_PER_GAME,
            "taking_min_defences": abuse.TAKING_MIN_DEFENCES,
            "taking_rate": int(abuse.TAKING_RATE * 100),
        },
    )
