"""Reading an uploaded or given ``durak-game/1`` file, and the shape every value in it must
have before anything else reads it: a bad file is a ``Mismatch`` naming the first bad
value, never an exception from deeper down."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from games.engine import EVENT_TYPES
from games.records.replay import Mismatch
from games.site_events import KINDS

LARGEST_FILE = 2_000_000
"""Bytes; a long game's export is about 100 KB."""
HEX = re.compile(r"[0-9a-f]{64}")
CARD = re.compile(r"[6-9TJQKA][SCDH]")


class Unreadable(Mismatch):
    """The file is not a JSON object at all."""


def read(body: bytes) -> dict[str, Any]:
    if len(body) > LARGEST_FILE:
        raise Unreadable(f"the file is larger than {LARGEST_FILE:,} bytes")
    try:
        record = json.loads(body.decode("utf-8"), parse_constant=refuse_constant)
    except UnicodeDecodeError:
        raise Unreadable("the file is not UTF-8 text") from None
    except RecursionError:
        raise Unreadable("the file is not JSON: it nests too deeply") from None
    except ValueError as error:
        raise Unreadable(f"the file is not JSON: {error}") from None
    if not isinstance(record, dict):
        raise Unreadable("the file is not a game record (a JSON object)")
    return record


def refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number")


@dataclass(frozen=True)
class Kind:
    """What a value must be, and how a refusal names it."""

    test: Callable[[Any], bool]
    words: str


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_finite(value: Any) -> bool:
    return (is_whole(value) or isinstance(value, float)) and math.isfinite(value)


def is_card(value: Any) -> bool:
    return isinstance(value, str) and CARD.fullmatch(value) is not None


WHOLE = Kind(is_whole, "a whole number")
WHOLE_OR_NULL = Kind(lambda value: value is None or is_whole(value), "a whole number or null")
NUMBER = Kind(is_finite, "a number")
TEXT = Kind(lambda value: isinstance(value, str), "text")
TRUE_OR_FALSE = Kind(lambda value: isinstance(value, bool), "true or false")
HEX64 = Kind(
    lambda value: isinstance(value, str) and HEX.fullmatch(value) is not None, "64 hex digits"
)
CARDS = Kind(lambda value: isinstance(value, list) and all(map(is_card, value)), "a list of cards")
ONE_CARD = Kind(is_card, "a card")
OBJECT = Kind(lambda value: isinstance(value, dict), "an object")
LIST = Kind(lambda value: isinstance(value, list), "a list")
ACTION_FIELDS = {"seat": WHOLE, "card": ONE_CARD, "cards": CARDS, "target": ONE_CARD}


def check(where: str, value: Any, kind: Kind) -> None:
    if not kind.test(value):
        shown = json.dumps(value)
        shown = shown if len(shown) <= 40 else shown[:40] + "…"
        raise Mismatch(f"{where}: {shown} is not {kind.words}")


def fields(where: str, value: Any, kinds: dict[str, Kind]) -> None:
    check(where, value, OBJECT)
    for key, kind in kinds.items():
        if key not in value:
            raise Mismatch(f"{where}: {key} is missing")
        check(f"{where}.{key}", value[key], kind)


def listed(where: str, value: Any, size: int | None = None) -> list[Any]:
    check(where, value, LIST)
    if size is not None and len(value) != size:
        raise Mismatch(f"{where}: {len(value)} entries for {size} players")
    return value


def check_shape(record: dict[str, Any]) -> None:
    """Every value the check reads has its type; raises ``Mismatch`` at the first that has not."""
    for key, kind in TOP.items():
        if key not in record:
            raise Mismatch(f"{key} is missing")
        check(key, record[key], kind)
    players = len(listed("players", record["players"]))
    if not 2 <= players <= 4:
        raise Mismatch(f"players: {players} players, not 2 to 4")
    for seat, player in enumerate(record["players"]):
        fields(f"players[{seat}]", player, {"seat": WHOLE, "name": TEXT, "bot": TRUE_OR_FALSE})
    fields("table", record["table"], {"id": WHOLE, "name": TEXT, "private": TRUE_OR_FALSE})
    rules = record["rules"]
    fields("rules", rules, dict.fromkeys(rules, NUMBER))
    fields("rules", rules, {"stake": WHOLE})
    for seat, seed in enumerate(listed("client_seeds", record["client_seeds"], players)):
        check(f"client_seeds[{seat}]", seed, TEXT)
    deal = record["deal"]
    fields("deal", deal, {"hands": LIST, "talon": CARDS, "at": NUMBER})
    for seat, hand in enumerate(listed("deal.hands", deal["hands"], players)):
        check(f"deal.hands[{seat}]", hand, CARDS)
    for number, event in enumerate(record["events"]):
        check_event(f"events[{number}]", event, players)
    result = record["result"]
    fields("result", result, {"outcome": TEXT, "groups": LIST})
    listed("result.places", result.get("places"), players)
    for seat, payout in enumerate(listed("result.payouts", result.get("payouts"), players)):
        check(f"result.payouts[{seat}]", payout, WHOLE)


TOP = {
    "id": WHOLE,
    "practice_of": WHOLE_OR_NULL,
    "seed": HEX64,
    "seed_hash": HEX64,
    "players": LIST,
    "table": OBJECT,
    "rules": OBJECT,
    "client_seeds": LIST,
    "deal": OBJECT,
    "events": LIST,
    "result": OBJECT,
    "signature": TEXT,
}


def check_event(where: str, event: Any, players: int) -> None:
    fields(where, event, {"seq": WHOLE, "type": TEXT, "at": NUMBER})
    kind = event["type"]
    if kind not in EVENT_TYPES and kind not in KINDS:
        raise Mismatch(f"{where}: there is no event {kind[:40]!r}")
    fields(where, event, SITE_FIELDS.get(kind, {}))
    fields(where, event, {key: ACTION_FIELDS[key] for key in ACTION_FIELDS if key in event})
    if "seat" in event and not 0 <= event["seat"] < players:
        raise Mismatch(f"{where}.seat: there is no seat {event['seat']}")


SITE_FIELDS = {
    "deal": {"seed_hash": HEX64},
    "seed": {"seed": HEX64},
    "stopped": {"round": WHOLE},
    "aborted": {"reason": TEXT},
}
