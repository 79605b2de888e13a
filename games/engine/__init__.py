"""The rules of Perevodnoy Durak (spec/RULES.md) behind the contract of spec/ENGINE.md.

Pure Python: no clock, no randomness but a seed passed in, no I/O.
"""

from __future__ import annotations

from .actions import Defend, IllegalAction, Lead, Pass, Take, ThrowIn, Transfer
from .bank import split_bank
from .cards import Card
from .deal import Deal
from .events import action_of, describe, public_event
from .game import Game
from .rules import Rules

__all__ = [
    "Card",
    "Deal",
    "Defend",
    "Game",
    "IllegalAction",
    "Lead",
    "Pass",
    "Rules",
    "Take",
    "ThrowIn",
    "Transfer",
    "action_of",
    "describe",
    "public_event",
    "split_bank",
]
