"""A recorded game rebuilt through the engine, one step at a time, from an export
(``games.records.export``): the deal, then every action and every deadline at its time.

Each step is one engine call (an action, or the deadlines due at a moment) and must give
exactly the events that were recorded; the first that does not is a ``Mismatch``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from games.engine import EVENT_TYPES, Deal, Event, Game, IllegalAction, Rules, action_of

SERVER_KEYS = ("seq", "by")
"""What the server adds to an engine event: its number, and who played for a seat."""


class Mismatch(Exception):
    """The record and the engine disagree; the text names the first difference."""


@dataclass
class Step:
    at: float
    events: list[dict[str, Any]]
    """The recorded events of this step (the deal has none)."""
    game: Game
    """The game after the step; it changes with the next one, so read it at once."""


def engine_rules(record: dict[str, Any]) -> Rules:
    terms = {key: value for key, value in record["rules"].items() if key != "stake"}
    return Rules(**terms)


def steps(record: dict[str, Any]) -> Iterator[Step]:
    try:
        deal = Deal(record["deal"]["hands"], record["deal"]["talon"], record["deal"].get("trump"))
        game = Game.start(deal, engine_rules(record), now=float(record["deal"]["at"]))
    except (KeyError, TypeError, ValueError) as bad:
        raise Mismatch(f"the deal cannot start a game: {bad}") from None
    yield Step(float(record["deal"]["at"]), [], game)
    recorded = [event for event in record["events"] if event.get("type") in EVENT_TYPES]
    done = 0
    while done < len(recorded):
        first = recorded[done]
        made = call_for(game, first)
        if not made:
            raise Mismatch(f"event {first['seq']} ({first['type']}): the engine has nothing to do")
        for offset, event in enumerate(made):
            if done + offset >= len(recorded):
                raise Mismatch(
                    f"after event {recorded[-1]['seq']}: the engine goes on with {event}"
                )
            compare(recorded[done + offset], event)
        yield Step(float(first["at"]), recorded[done : done + len(made)], game)
        done += len(made)


def call_for(game: Game, event: dict[str, Any]) -> list[Event]:
    """The engine call that made ``event``: the seat's action, or the deadlines due then."""
    try:
        at = float(event["at"])
        taken = action_of(event)
        if taken is None:
            return game.tick(at)
        seat, action = taken
        return game.apply(seat, action, at)
    except IllegalAction as illegal:
        raise Mismatch(f"event {event['seq']} ({event['type']}): {illegal.reason}") from None
    except (KeyError, TypeError, ValueError) as bad:
        raise Mismatch(f"event {event.get('seq')} ({event.get('type')}): {bad!r}") from None


def compare(recorded: dict[str, Any], made: Event) -> None:
    expected = {key: value for key, value in recorded.items() if key not in SERVER_KEYS}
    made = json.loads(json.dumps(made))
    if expected != made:
        raise Mismatch(
            f"event {recorded['seq']} ({recorded['type']}): recorded {expected}, "
            f"the engine gives {made}"
        )
