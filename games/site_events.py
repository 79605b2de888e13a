"""The events the site writes into a game's log besides the engine's (``games.engine.Event``).

A game's log (``GameEvent.data``) holds the engine's events as they came, and these: each a
``Logged``. Every writer makes them here, so their shape is declared once.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict, cast

from games.engine import Event, event_types


class Deal(TypedDict):
    """The cards are dealt (R1): the seed's SHA-256, so the deal can be checked afterwards."""

    type: Literal["deal"]
    seed_hash: str


class Seed(TypedDict):
    """The game has ended: the seed itself is revealed."""

    type: Literal["seed"]
    seed: str


class Stopped(TypedDict):
    """A game among bots alone stopped after many rounds; it pays as a draw (R14)."""

    type: Literal["stopped"]
    round: int


class Aborted(TypedDict):
    """The staff stopped the game and every stake went back."""

    type: Literal["aborted"]
    reason: str


SiteEvent = Deal | Seed | Stopped | Aborted
KINDS = event_types(SiteEvent)

Logged = Event | SiteEvent
"""An event of a game's log. The server adds to each its time ``at`` (the engine's carry theirs)
and its number ``seq``, and to an engine event ``by`` when no person made it."""

By = Literal["bot", "autopilot"]
"""Who made a move the engine reports, under the key ``"by"``, when no person did: a bot at a
bot's seat, or the autopilot for a person who is away or has left (R15)."""


def deal(seed_hash: str) -> Deal:
    return {"type": "deal", "seed_hash": seed_hash}


def seed(value: str) -> Seed:
    return {"type": "seed", "seed": value}


def stopped(round_number: int) -> Stopped:
    return {"type": "stopped", "round": round_number}


def aborted(reason: str) -> Aborted:
    return {"type": "aborted", "reason": reason}


def made_by(event: Event, by: By) -> None:
    """Mark an engine event as made by a bot or the autopilot (unless it already says)."""
    cast(dict[str, Any], event).setdefault("by", by)
