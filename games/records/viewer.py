"""What the replay viewer draws: each step of a rebuilt game (``games.records.replay``) as one seat
saw it, or with every hand open, with the move log in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import EVENT_TYPES, Role, Waiting
from games.picture import movelog
from games.records.replay import steps

OPEN = "all"


def seat_named(asked: str, players: int) -> int | None:
    """The seat a reader asks to see from: None for every hand open; ``ValueError`` for a
    seat the game has not."""
    if asked == OPEN:
        return None
    if asked.isdigit() and int(asked) < players:
        return int(asked)
    raise ValueError(asked)


def frames(record: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Every step seen from ``seat`` (None: every hand open). Raises ``Mismatch`` when the
    record does not replay."""
    names = [player["name"] for player in record["players"]]
    shown: list[dict[str, Any]] = []
    step_of: dict[int, int] = {}
    for number, step in enumerate(steps(record)):
        view: dict[str, Any] = {**step.game.view(seat)}
        if seat is None:
            view["hands"] = [[card.code for card in hand] for hand in step.game.hands]
        shown.append({"at": step.at, "view": view})
        for event in step.events:
            step_of[event["seq"]] = number
    log = []
    last = 0
    for event in record["events"]:
        if event["type"] in EVENT_TYPES:
            last = step_of[event["seq"]]
        reader = event.get("seat") if seat is None else seat
        text = movelog.describe(event, names, reader)
        if text:
            log.append({"step": last, "seq": event["seq"], "text": text})
    return {
        "id": record["id"],
        "players": record["players"],
        "rules": record["rules"],
        "seat": seat,
        "start": shown[0]["at"],
        "steps": shown,
        "log": log,
    }


def labels() -> dict[str, str]:
    """The viewer's words in the reader's language (the script only fills in values)."""
    return {
        "talon": _("Talon: %s"),
        "discard": _("Discard: %s"),
        "trump": _("Trump"),
        "round": _("Round %(round)s: %(attacker)s led, %(defender)s defends (at most %(limit)s)"),
        "step": _("Step %(step)s of %(steps)s"),
        "clock": _("%(time)s into the game"),
        Waiting.LEAD: _("%(name)s must lead: %(seconds)s s left"),
        Waiting.DEFENCE: _("%(name)s must answer: %(seconds)s s left"),
        Waiting.WINDOW: _("Others may throw in: %(seconds)s s left"),
        Waiting.CLOSE: _("The round closes in %(seconds)s s"),
        "over": _("The game is over."),
        "cards": _("%s cards"),
        "passed": _("pass"),
        Role.ATTACKER: _("attacker"),
        Role.DEFENDER: _("defender"),
        Role.FINISHED: _("finished"),
        Role.DURAK: _("durak"),
        "empty": _("No cards on the table."),
        "bot": _("bot"),
        "loading": _("Loading the replay…"),
        "failed": _("The replay could not be loaded."),
    }
