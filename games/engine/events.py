"""The events a game reports, what of them may be shown, and the actions they record.

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

from collections.abc import Callable
from typing import Any

from .actions import Action, Defend, Lead, Pass, Take, ThrowIn, Transfer

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
