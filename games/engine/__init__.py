"""The rules of Perevodnoy Durak (spec/RULES.md) behind the contract of spec/ENGINE.md.

Pure Python: no clock, no randomness but a seed passed in, no I/O. Everything outside the
engine imports from here, never from its modules.
"""

from __future__ import annotations

from .actions import Action, Defend, IllegalAction, Lead, Pass, Take, ThrowIn, Transfer
from .bank import Payout, payouts, split_bank
from .cards import (
    CARDS,
    RANK_LABELS,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    as_cards,
    beats,
    cards_in,
    in_order,
    labels,
)
from .deal import Deal
from .events import (
    EVENT_TYPES,
    DefendEvent,
    DiscardEvent,
    DrawEvent,
    Event,
    FinishEvent,
    LeadEvent,
    OverEvent,
    PassEvent,
    PickUpEvent,
    RoundEvent,
    TakeEvent,
    ThrowInEvent,
    TransferEvent,
    action_of,
    event_types,
    public_event,
)
from .fair import deal_salt, fair_deal, fair_deck, seed_commitment
from .game import Game
from .phase import Phase, Role, Waiting
from .reasons import Reason
from .rules import Rules
from .seats import next_seat
from .view import View

__all__ = [
    "CARDS",
    "EVENT_TYPES",
    "RANK_LABELS",
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "Action",
    "Card",
    "Deal",
    "Defend",
    "DefendEvent",
    "DiscardEvent",
    "DrawEvent",
    "Event",
    "FinishEvent",
    "Game",
    "IllegalAction",
    "Lead",
    "LeadEvent",
    "OverEvent",
    "Pass",
    "PassEvent",
    "Payout",
    "Phase",
    "PickUpEvent",
    "Reason",
    "Role",
    "RoundEvent",
    "Rules",
    "Take",
    "TakeEvent",
    "ThrowIn",
    "ThrowInEvent",
    "Transfer",
    "TransferEvent",
    "View",
    "Waiting",
    "action_of",
    "as_cards",
    "beats",
    "cards_in",
    "deal_salt",
    "event_types",
    "fair_deal",
    "fair_deck",
    "in_order",
    "labels",
    "next_seat",
    "payouts",
    "public_event",
    "seed_commitment",
    "split_bank",
]
