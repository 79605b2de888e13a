"""The coach: after a game, each decision of its people is judged from what that seat knew at
that moment, and the ones that cost more than ``MARGIN`` of the chance of not being the durak
are noted with the better move."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.bots.review import Estimate, estimate
from games.engine import Action, Event, action_of
from games.engine import Game as EngineGame
from games.models import Game
from games.records.export import export
from games.records.replay import steps
from ratings.models import CoachNote, CoachReview

MARGIN = 0.2
"""A decision is noted when the best move's chance beats the played one's by more than this."""
BUDGET = 3.0
"""Seconds of search a whole game may take."""
LEAST_PER_DECISION = 0.02


@dataclass(frozen=True)
class Decision:
    seq: int
    seat: int
    game: EngineGame
    """The game just before the decision (not to be changed)."""
    played: Action
    event: dict[str, Any]


@dataclass(frozen=True)
class Note:
    seq: int
    seat: int
    played: Event
    better: Event
    played_chance: float
    better_chance: float
    deals: int


def decisions(record: dict[str, Any], people: set[int]) -> Iterator[Decision]:
    """Replay an exported game (``games.records.export``) from its deal, yielding each choice a
    person made themselves (not the autopilot's, not a timeout) among more than one legal action."""
    before: EngineGame | None = None
    for step in steps(record):
        first = step.events[0] if step.events else None
        taken = action_of(first) if first is not None else None
        if before is not None and first is not None and taken is not None:
            seat, action = taken
            if seat in people and "by" not in first and len(before.legal_actions(seat)) > 1:
                yield Decision(int(first["seq"]), seat, before, action, first)
        before = EngineGame.from_dict(step.game.to_dict())


def review(
    record: dict[str, Any],
    people: set[int],
    *,
    budget: float = BUDGET,
    margin: float = MARGIN,
    seed: int = 0,
) -> tuple[list[Note], int]:
    """The notes of a game and the number of decisions judged, within ``budget`` seconds."""
    found = list(decisions(record, people))
    if not found:
        return [], 0
    started = time.perf_counter()
    notes: list[Note] = []
    rng = random.Random(seed)
    for index, decision in enumerate(found):
        left = budget - (time.perf_counter() - started)
        if left <= LEAST_PER_DECISION:
            return notes, index
        share = left / (len(found) - index)
        game = decision.game
        legal = game.legal_actions(decision.seat)
        estimates = estimate(game.view(decision.seat), legal, decision.played, rng, share)
        note = note_of(decision, estimates, margin)
        if note is not None:
            notes.append(note)
    return notes, len(found)


def note_of(decision: Decision, estimates: list[Estimate], margin: float) -> Note | None:
    played, best = estimates[0], max(estimates, key=lambda e: e.safe)
    if best.safe - played.safe <= margin:
        return None
    return Note(
        seq=decision.seq,
        seat=decision.seat,
        played=event_of(decision, decision.played),
        better=event_of(decision, best.action),
        played_chance=played.safe,
        better_chance=best.safe,
        deals=played.deals,
    )


def event_of(decision: Decision, action: Action) -> Event:
    """The event the engine would have written for ``action``, for the move log's words."""
    game = EngineGame.from_dict(decision.game.to_dict())
    events = game.apply(decision.seat, action, float(decision.event["at"]))
    mine = [e for e in events if e.get("seat") == decision.seat and action_of(e) is not None]
    return mine[0]


def store(game_id: int, notes: list[Note], judged: int, seconds: float) -> None:
    with transaction.atomic():
        review_row, created = CoachReview.objects.get_or_create(
            game_id=game_id, defaults={"decisions": judged, "seconds": seconds}
        )
        if not created:
            return
        CoachNote.objects.bulk_create(
            CoachNote(
                game_id=game_id,
                seq=note.seq,
                seat=note.seat,
                played=note.played,
                better=note.better,
                played_chance=note.played_chance,
                better_chance=note.better_chance,
                deals=note.deals,
            )
            for note in notes
        )


def pending() -> list[int]:
    """Finished games with a person at the table that the coach has not reviewed, oldest
    first."""
    return list(
        Game.objects.filter(
            status=Game.Status.FINISHED,
            coach_review__isnull=True,
            players__player__isnull=False,
        )
        .exclude(deal={})
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
        .distinct()
    )


def coach_game(game_id: int, budget: float = BUDGET) -> CoachReview | None:
    """Review one finished game and store what was found (once)."""
    row = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if row is None or CoachReview.objects.filter(game=row).exists():
        return None
    people = set(row.players.filter(player__isnull=False).values_list("seat", flat=True))
    started = time.perf_counter()
    notes, judged = review(export(row), people, budget=budget, seed=row.pk)
    store(row.pk, notes, judged, time.perf_counter() - started)
    return CoachReview.objects.get(game=row)
