"""What the replay viewer draws: each step of a rebuilt game (``games.replay``) as one seat
saw it, or with every hand open, with the move log in the reader's language."""

from __future__ import annotations

from typing import Any

from games import movelog
from games.engine.cards import codes
from games.replay import ENGINE_EVENTS, steps

OPEN = "all"


def frames(record: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Every step seen from ``seat`` (None: every hand open). Raises ``Mismatch`` when the
    record does not replay."""
    names = [player["name"] for player in record["players"]]
    shown: list[dict[str, Any]] = []
    step_of: dict[int, int] = {}
    for number, step in enumerate(steps(record)):
        view = step.game.view(seat)
        if seat is None:
            view["hands"] = [codes(hand) for hand in step.game.hands]
        shown.append({"at": step.at, "view": view})
        for event in step.events:
            step_of[event["seq"]] = number
    log = []
    last = 0
    for event in record["events"]:
        if event["type"] in ENGINE_EVENTS:
            last = step_of[event["seq"]]
        reader = event.get("seat") if seat is None else seat
        text = movelog.describe(event, names, reader)
        if text:
            log.append({"step": last, "text": text})
    return {
        "id": record["id"],
        "players": record["players"],
        "seat": seat,
        "start": shown[0]["at"],
        "steps": shown,
        "log": log,
    }
