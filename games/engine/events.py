"""The events a game reports, what of them may be shown, and the actions they record.

Events from ``Game.apply`` and ``Game.tick`` are the full truth, for the server's log and
replays: each is an ``Event``, a dict whose ``type`` names its kind below, with ``at`` (the game
time it happened). A stored copy may carry keys of its own besides these (the server numbers
them). ``auto`` is True when the seat ran out of move time (R15) and the engine acted for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, NotRequired, TypedDict, get_args, get_type_hints

from .actions import Action, Defend, Lead, Pass, Take, ThrowIn, Transfer


class RoundEvent(TypedDict):
    """A round begins."""

    type: Literal["round"]
    at: float
    round: int
    attacker: int
    defender: int
    limit: int


class LeadEvent(TypedDict):
    type: Literal["lead"]
    at: float
    seat: int
    cards: list[str]
    defender: int
    auto: bool


class ThrowInEvent(TypedDict):
    type: Literal["throw_in"]
    at: float
    seat: int
    card: str


class DefendEvent(TypedDict):
    type: Literal["defend"]
    at: float
    seat: int
    card: str
    target: str


class TransferEvent(TypedDict):
    type: Literal["transfer"]
    at: float
    seat: int
    card: str
    to: int
    """The new defender."""


class TakeEvent(TypedDict):
    type: Literal["take"]
    at: float
    seat: int
    auto: bool


class PassEvent(TypedDict):
    type: Literal["pass"]
    at: float
    seat: int


class PickUpEvent(TypedDict):
    """The defender who took picks up the table."""

    type: Literal["pick_up"]
    at: float
    seat: int
    cards: list[str]


class DiscardEvent(TypedDict):
    """The table goes to the discard pile."""

    type: Literal["discard"]
    at: float
    cards: list[str]


class DrawEvent(TypedDict):
    type: Literal["draw"]
    at: float
    seat: int
    count: int
    cards: NotRequired[list[str]]
    """Hidden: the engine always gives them, ``public_event`` leaves them out."""
    shown: list[str]
    """The face-up trump card, when it is among the cards drawn."""


class FinishEvent(TypedDict):
    type: Literal["finish"]
    at: float
    seat: int
    place: int
    """The first place of the seat's finishing group."""


class OverEvent(TypedDict):
    type: Literal["over"]
    at: float
    durak: int | None
    """None for a draw."""
    finished: list[list[int]]
    """The finishing groups."""


Event = (
    RoundEvent
    | LeadEvent
    | ThrowInEvent
    | DefendEvent
    | TransferEvent
    | TakeEvent
    | PassEvent
    | PickUpEvent
    | DiscardEvent
    | DrawEvent
    | FinishEvent
    | OverEvent
)


def event_types(kinds: object) -> frozenset[str]:
    """The ``type`` of each kind of event in a union of them (or of a single kind)."""
    return frozenset(
        get_args(get_type_hints(kind)["type"])[0] for kind in get_args(kinds) or (kinds,)
    )


EVENT_TYPES = event_types(Event)


def action_of(event: Mapping[str, Any]) -> tuple[int, Action] | None:
    """The seat and the action a player took, for the events of players' actions (as made, or
    as stored); None for what the engine did by itself (timeouts, the end of a round).
    Replaying these through ``Game.apply`` at ``event["at"]`` rebuilds the game from its deal."""
    kind = event["type"]
    if event.get("auto") or kind not in _ACTIONS:
        return None
    return event["seat"], _ACTIONS[kind](event)


_ACTIONS: dict[str, Callable[[Mapping[str, Any]], Action]] = {
    "lead": lambda event: Lead(event["cards"]),
    "throw_in": lambda event: ThrowIn(event["card"]),
    "defend": lambda event: Defend(event["card"], event["target"]),
    "transfer": lambda event: Transfer(event["card"]),
    "take": lambda event: Take(),
    "pass": lambda event: Pass(),
}


def public_event(event: Event) -> Event:
    """The event as everyone may see it: drawn cards are hidden, except the face-up trump."""
    shown = event.copy()
    if shown["type"] == "draw":
        shown.pop("cards", None)
    return shown
