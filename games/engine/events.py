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
    seat = names[event["seat"]] if "seat" in event else ""
    late = " (out of time)" if event.get("auto") else ""
    if kind == "round":
        return (
            f"Round {event['round']}: {names[event['attacker']]} attacks "
            f"{names[event['defender']]}, at most {event['limit']} cards"
        )
    if kind == "lead":
        return f"{seat} leads {_cards(event['cards'])}{late}"
    if kind == "throw_in":
        return f"{seat} throws in {_cards([event['card']])}"
    if kind == "defend":
        return f"{seat} beats {_cards([event['target']])} with {_cards([event['card']])}"
    if kind == "transfer":
        return f"{seat} transfers with {_cards([event['card']])} to {names[event['to']]}"
    if kind == "take":
        return f"{seat} takes{late}"
    if kind == "pass":
        return f"{seat} passes"
    if kind == "pick_up":
        return f"{seat} picks up {_cards(event['cards'])}"
    if kind == "discard":
        return f"Beaten: {_cards(event['cards'])} go to the discard pile"
    if kind == "draw":
        shown = f", including the trump card {_cards(event['shown'])}" if event["shown"] else ""
        return f"{seat} draws {event['count']} card{'s' * (event['count'] > 1)}{shown}"
    if kind == "finish":
        return f"{seat} has no cards left and finishes"
    if kind == "over":
        if event["durak"] is None:
            return "The game ends in a draw"
        return f"The game is over: {names[event['durak']]} is the durak"
    raise ValueError(f"unknown event type {kind!r}")


def _cards(texts: Sequence[str]) -> str:
    return " ".join(Card.parse(text).symbol for text in texts)
