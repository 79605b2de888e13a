"""The coach: after a game, each decision of its people is judged from what that seat knew at
that moment, and the ones that cost more than ``MARGIN`` of the chance of not being the durak
are noted with the better move."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.bots.review import Estimate, estimate
from games.engine import Action, action_of
from games.engine import Game as EngineGame
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
    played: dict[str, Any]
    better: dict[str, Any]
    played_chance: float
    better_chance: float
    deals: int


def decisions(
    start: EngineGame, events: Sequence[tuple[int, dict[str, Any]]], people: set[int]
) -> Iterator[Decision]:
    """Replay ``(seq, event)`` from the deal, yielding each choice a person made themselves
    (not the autopilot's, not a timeout) among more than one legal action."""
    game = EngineGame.from_dict(start.to_dict())
    for seq, event in events:
        taken = action_of(event) if "at" in event else None
        if taken is None:
            if event.get("auto"):
                game.tick(float(event["at"]))
            continue
        seat, action = taken
        if seat in people and "by" not in event and len(game.legal_actions(seat)) > 1:
            yield Decision(seq, seat, EngineGame.from_dict(game.to_dict()), action, event)
        game.apply(seat, action, float(event["at"]))


def review(
    start: EngineGame,
    events: Sequence[tuple[int, dict[str, Any]]],
    people: set[int],
    *,
    budget: float = BUDGET,
    margin: float = MARGIN,
    seed: int = 0,
) -> tuple[list[Note], int]:
    """The notes of a game and the number of decisions judged, within ``budget`` seconds."""
    found = list(decisions(start, events, people))
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
        played=decision.event,
        better=event_of(decision, best.action),
        played_chance=played.safe,
        better_chance=best.safe,
        deals=played.deals,
    )


def event_of(decision: Decision, action: Action) -> dict[str, Any]:
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
