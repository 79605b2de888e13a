"""What events may be shown, and how they read in a move log.

Events from ``Game.apply`` and ``Game.tick`` are the full truth, for the server's log and
replays. Each is a dict with ``type`` and ``at`` (the game time it happened):

- ``round``: ``round``, ``attacker``, ``defender``, ``limit`` (a round begins)
- ``lead``: ``seat``, ``cards``, ``defender``, ``auto``
- ``throw_in``: ``seat``, ``card``
- ``defend``: ``seat``, ``card``, ``target``
- ``transfer``: ``seat``, ``card``, ``to`` (the new defender)
- ``take``: ``seat``, ``auto``
- ``pass``: ``seat``
- ``pick_up``: ``seat``, ``cards`` (the defender who took picks up the table)
- ``discard``: ``cards`` (the table goes to the discard pile)
- ``draw``: ``seat``, ``count``, ``cards`` (hidden), ``shown`` (the face-up trump card, when
  drawn)
- ``finish``: ``seat``, ``place`` (the first place of the seat's finishing group)
- ``over``: ``durak`` (None for a draw), ``finished`` (the groups)

``auto`` is True when the seat ran out of move time (R15) and the engine acted for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .actions import Action, Defend, Lead, Pass, Take, ThrowIn, Transfer
from .cards import Card

Event = dict[str, Any]


def action_of(event: Event) -> tuple[int, Action] | None:
    """The seat and the action a player took, for the events of players' actions; None for what
    the engine did by itself (timeouts, the end of a round). Replaying these through
    ``Game.apply`` at ``event["at"]`` rebuilds the game from its deal."""
    kind = event["type"]
    if event.get("auto") or kind not in _ACTIONS:
        return None
    return event["seat"], _ACTIONS[kind](event)


_ACTIONS: dict[str, Callable[[Event], Action]] = {
    "lead": lambda event: Lead(event["cards"]),
    "throw_in": lambda event: ThrowIn(event["card"]),
    "defend": lambda event: Defend(event["card"], event["target"]),
    "transfer": lambda event: Transfer(event["card"]),
    "take": lambda event: Take(),
    "pass": lambda event: Pass(),
}


def public_event(event: Event) -> Event:
    """The event as everyone may see it: drawn cards are hidden, except the face-up trump."""
    if event["type"] != "draw":
        return dict(event)
    return {key: value for key, value in event.items() if key != "cards"}


def describe(event: Event, names: Sequence[str]) -> str:
    """One line of the move log, e.g. "Anna transfers with 7♥ to Boris"."""
    kind = event["type"]
    if kind not in _LINES:
        raise ValueError(f"unknown event type {kind!r}")
    fields = dict(event)
    for key in ("seat", "to", "attacker", "defender", "durak"):
        if fields.get(key) is not None:
            fields[key] = names[fields[key]]
    for key in ("card", "target"):
        if key in fields:
            fields[key] = _cards([fields[key]])
    for key in ("cards", "shown"):
        if key in fields:
            fields[key] = _cards(fields[key])
    fields["late"] = " (out of time)" if event.get("auto") else ""
    if kind == "draw":
        fields["s"] = "s" * (event["count"] > 1)
        fields["shown"] = f", including the trump card {fields['shown']}" if event["shown"] else ""
    if kind == "over" and event["durak"] is None:
        return "The game ends in a draw"
    return _LINES[kind].format(**fields)


_LINES = {
    "round": "Round {round}: {attacker} attacks {defender}, at most {limit} cards",
    "lead": "{seat} leads {cards}{late}",
    "throw_in": "{seat} throws in {card}",
    "defend": "{seat} beats {target} with {card}",
    "transfer": "{seat} transfers with {card} to {to}",
    "take": "{seat} takes{late}",
    "pass": "{seat} passes",
    "pick_up": "{seat} picks up {cards}",
    "discard": "Beaten: {cards} go to the discard pile",
    "draw": "{seat} draws {count} card{s}{shown}",
    "finish": "{seat} has no cards left and finishes",
    "over": "The game is over: {durak} is the durak",
}


def _cards(texts: Sequence[str]) -> str:
    return " ".join(Card.parse(text).symbol for text in texts)
