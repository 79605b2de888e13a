"""What a browser may send over the table socket, checked before anything acts on it.

Messages come from the htmx ws extension: a JSON object of the form's values plus a
`HEADERS` object. Every command names its action, its card and target where it has
them, and the game version the player was looking at.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal, get_args

from django.utils.translation import gettext as _

from games.engine import Card, Defend, Lead, Pass, Take, ThrowIn, Transfer
from games.live import parts

MAX_MESSAGE_BYTES = 2048
CardAction = Literal["lead", "throw-in", "defend", "transfer"]
PlainAction = Literal["take", "pass"]
TableAction = Literal["play-again", "ping", "sync"]
CommandAction = CardAction | PlainAction | TableAction
CARD_ACTIONS: tuple[CardAction, ...] = get_args(CardAction)
PLAIN_ACTIONS: tuple[PlainAction, ...] = get_args(PlainAction)
TABLE_ACTIONS: tuple[TableAction, ...] = get_args(TableAction)
ACTIONS = CARD_ACTIONS + PLAIN_ACTIONS + TABLE_ACTIONS


class ProtocolError(ValueError):
    """A message that cannot be understood; the text says what is wrong with it."""


@dataclass(frozen=True)
class ForPart:
    """A message for another app's part of the table socket (`games.live.parts`)."""

    part: type[parts.SocketPart]
    command: object


@dataclass(frozen=True)
class Command:
    action: CommandAction
    cards: tuple[Card, ...] = ()
    target: Card | None = None
    version: int | None = None

    def to_engine(self) -> Lead | ThrowIn | Defend | Transfer | Take | Pass:
        if self.action == "lead":
            return Lead(self.cards)
        if self.action == "throw-in":
            return ThrowIn(self.cards[0])
        if self.action == "defend":
            assert self.target is not None
            return Defend(self.cards[0], self.target)
        if self.action == "transfer":
            return Transfer(self.cards[0])
        if self.action == "take":
            return Take()
        return Pass()

    @property
    def is_move(self) -> bool:
        return self.action not in TABLE_ACTIONS


def quoted(value: object, limit: int) -> str:
    """A short excerpt of what was sent, safe to show back on any page."""
    return str(value)[:limit].encode("utf-8", "replace").decode("utf-8")


def parse_card(value: object, field: str) -> Card:
    if not isinstance(value, str):
        raise ProtocolError(_("The field “%(field)s” must name a card.") % {"field": field})
    try:
        return Card.parse(value.strip())
    except ValueError:
        raise ProtocolError(_("“%(value)s” is not a card.") % {"value": quoted(value, 8)}) from None


def refuse_constant(name: str) -> object:
    raise ProtocolError(_("The version must be a whole number."))


def parse(text: str | bytes | None) -> Command | ForPart:
    """The command a message asks for; `ProtocolError` for anything else, whatever it is."""
    try:
        return parse_message(text)
    except ProtocolError:
        raise
    except Exception:
        # Deep nesting (RecursionError) and the like: refused, never raised.
        raise ProtocolError(_("The message is not valid JSON.")) from None


def parse_message(text: str | bytes | None) -> Command | ForPart:
    if text is None:
        raise ProtocolError(_("Only text messages are understood."))
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError(_("The message is too long."))
    try:
        data = json.loads(text, parse_constant=refuse_constant)
    except ProtocolError:
        raise
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(_("The message is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise ProtocolError(_("The message must be a JSON object."))
    action = data.get("action")
    part = parts.taking(action) if isinstance(action, str) else None
    if part is not None:
        return ForPart(part, part.parse(data))
    if not isinstance(action, str) or action not in ACTIONS:
        raise ProtocolError(_("Unknown action “%(action)s”.") % {"action": quoted(action, 20)})
    version = parse_version(data.get("version"))
    if action in TABLE_ACTIONS:
        return Command(action=action, version=version)
    if version is None:
        raise ProtocolError(_("The move does not say which position it was made on."))
    if action in PLAIN_ACTIONS:
        return Command(action=action, version=version)
    raw_cards = data.get("card")
    if isinstance(raw_cards, list):
        if not raw_cards or len(raw_cards) > 6:
            raise ProtocolError(_("A move names one to six cards."))
        cards = tuple(parse_card(value, "card") for value in raw_cards)
    else:
        cards = (parse_card(raw_cards, "card"),)
    if len(cards) > 1 and action != "lead":
        raise ProtocolError(_("Only a lead may play several cards at once."))
    target = parse_card(data.get("target"), "target") if action == "defend" else None
    return Command(action=action, cards=cards, target=target, version=version)


def parse_version(value: object) -> int | None:
    """A game version: a whole number, as JSON or as the text of a form field."""
    if value is None or value == "":
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ProtocolError(_("The version must be a whole number."))
    return value
