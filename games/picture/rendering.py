"""HTML for each audience of a table: the spectators, and each seat with its own hand.

Everything drawn here comes from `engine.view(seat)`: no other game state reaches a page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.functional import lazy
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import gates
from games.engine import (
    RANK_LABELS,
    SUIT_SYMBOLS,
    Card,
    Defend,
    Lead,
    Role,
    ThrowIn,
    Transfer,
    View,
    Waiting,
    payouts,
)
from games.errors import GameError, SeatedElsewhere, in_words
from games.models import Game, Seat, SeatInfo, Table
from games.picture import movelog
from games.picture.rulebook import link_rules

EARLIER_GAMES = 10


def card_name(code: str) -> str:
    card = Card.parse(code)
    names = {
        6: _("Six"),
        7: _("Seven"),
        8: _("Eight"),
        9: _("Nine"),
        10: _("Ten"),
        11: _("Jack"),
        12: _("Queen"),
        13: _("King"),
        14: _("Ace"),
    }
    suits = {"S": _("of spades"), "C": _("of clubs"), "D": _("of diamonds"), "H": _("of hearts")}
    return f"{names[card.rank]} {suits[card.suit]}"


@dataclass(frozen=True)
class CardFace:
    code: str
    rank: str
    suit: str
    symbol: str
    red: bool
    name: str

    @classmethod
    def of(cls, code: str) -> CardFace:
        """The card as the active language names it."""
        return face_in(code, get_language())

    @classmethod
    def drawn(cls, code: str) -> CardFace:
        card = Card.parse(code)
        return cls(
            code=code,
            rank=RANK_LABELS[card.rank],
            suit=card.suit,
            symbol=SUIT_SYMBOLS[card.suit],
            red=card.suit in "DH",
            name=card_name(code),
        )


@lru_cache(maxsize=len(RANK_LABELS) * len(SUIT_SYMBOLS) * 8)
def face_in(code: str, language: str | None) -> CardFace:
    return CardFace.drawn(code)


@dataclass(frozen=True)
class HandCard:
    face: CardFace
    action: str
    targets: tuple[str, ...]
    transfer: bool


def role_name(role: Role) -> str:
    return role_name_in(role, get_language())


@lru_cache(maxsize=64)
def role_name_in(role: Role, language: str | None) -> str:
    return {
        Role.ATTACKER: _("attacker"),
        Role.DEFENDER: _("defender"),
        Role.FINISHED: _("finished"),
        Role.DURAK: _("durak"),
    }.get(role, role)


def hand_cards(view: View, legal: Sequence[Any]) -> list[HandCard]:
    """Each card of the hand with what tapping it does now."""
    leads: set[str] = set()
    throw_ins: set[str] = set()
    transfers: set[str] = set()
    defences: dict[str, list[str]] = {}
    for action in legal:
        if isinstance(action, Lead):
            leads.update(str(card) for card in action.cards)
        elif isinstance(action, ThrowIn):
            throw_ins.add(str(action.card))
        elif isinstance(action, Transfer):
            transfers.add(str(action.card))
        elif isinstance(action, Defend):
            defences.setdefault(str(action.card), []).append(str(action.target))
    cards = []
    for code in view["hand"]:
        if code in leads:
            action = "lead"
        elif code in throw_ins:
            action = "throw-in"
        elif code in defences:
            action = "defend"
        else:
            action = ""
        cards.append(
            HandCard(
                face=CardFace.of(code),
                action=action,
                targets=tuple(defences.get(code, ())),
                transfer=code in transfers,
            )
        )
    return cards


def headline(events: Sequence[dict[str, Any]], seats: Sequence[SeatInfo]) -> dict[str, Any] | None:
    """A short line for what just changed that is easy to miss: a transfer or the drawing."""
    transfers = [event for event in events if event["type"] == "transfer"]
    if transfers:
        defender = transfers[-1]["to"]
        return {
            "kind": "transfer",
            "defender": defender,
            "text": _("Now %(name)s defends.") % {"name": seats[defender].label},
        }
    draws = [event for event in events if event["type"] == "draw" and event["count"]]
    if draws:
        parts = ", ".join(f"{seats[event['seat']].label} +{event['count']}" for event in draws)
        return {"kind": "draw", "defender": None, "text": _("Drawing: %(who)s") % {"who": parts}}
    return None


def waited_on(view: View, position: int) -> bool:
    """The player the move timer of R15 runs for."""
    waiting = view["waiting_for"]
    if waiting == Waiting.LEAD:
        return position == int(view["attacker"])
    if waiting == Waiting.DEFENCE:
        return position == int(view["defender"])
    return False


def render_notice(message: str, *, level: str = "error", oob: bool = True) -> str:
    """A line for the player; `oob` when it travels with other fragments (a socket's)."""
    text = message if isinstance(message, SafeData) else link_rules(message)
    return render_to_string(
        "games/fragments/notice.html", {"message": text, "level": level, "oob": oob}
    )


def refusal_html(refusal: GameError, request: HttpRequest | None = None) -> SafeString:
    """A refusal as the page shows it: a sentence, with links where it names a rule or
    another table of the player's."""
    if isinstance(refusal, SeatedElsewhere):
        html = render_to_string(
            "games/fragments/seated_elsewhere.html", {"refusal": refusal}, request=request
        )
        return mark_safe(html.strip())
    return link_rules(str(refusal))


def log_entries(
    events: Sequence[dict[str, Any]], seats: Sequence[SeatInfo], reader: int | None
) -> list[str]:
    names = [info.label for info in seats]
    lines = (movelog.describe(event, names, reader) for event in events)
    return [line for line in lines if line]


def earlier_games(table_id: int, shown: int | None) -> list[Game]:
    """The table's other finished games, newest first, for links under the log."""
    return list(
        Game.objects.filter(table_id=table_id)
        .exclude(status=Game.Status.RUNNING)
        .exclude(pk=shown or 0)
        .order_by("-started_at")[:EARLIER_GAMES]
    )


def render_log(
    events: Sequence[dict[str, Any]],
    seats: Sequence[SeatInfo] | None,
    reader: int | None,
    earlier: Sequence[Game] = (),
) -> str:
    """The log of one game, from its first line, and links to the table's earlier games."""
    lines = log_entries(events, seats, reader) if seats is not None else []
    return render_to_string("games/fragments/log.html", {"lines": lines, "earlier": earlier})


def render_log_append(
    events: Sequence[dict[str, Any]], seats: Sequence[SeatInfo], reader: int | None
) -> str:
    lines = log_entries(events, seats, reader)
    if not lines:
        return ""
    return render_to_string("games/fragments/log_append.html", {"lines": lines})


words_when_shown = lazy(in_words, str)
"""The engine's words, put in the language of whoever the page is rendered for."""


def receipt(game: Game) -> dict[str, Any]:
    """The bank receipt: each payout as the engine reckons it by R14 (places, share, rule,
    rounding), for the players in place order. The rules' words are put in the reader's
    language when the page is rendered, so one receipt serves every audience."""
    players = {p.seat: p for p in game.players.select_related("player")}
    count = len(players)
    by_place: dict[int, list[int]] = {}
    for seat, player in sorted(players.items()):
        by_place.setdefault(player.place or count, []).append(seat)
    groups = [seats for _, seats in sorted(by_place.items())]
    reckoned = payouts(game.bank, groups, count)
    rows = [
        {
            "player": players[seat],
            "places": list(reckoned[seat].places),
            "rule": words_when_shown(reckoned[seat].rule),
            "each": reckoned[seat].share,
            "rounded_down": reckoned[seat].rounded_down,
            "leftover": reckoned[seat].leftover,
            "payout": reckoned[seat].chips,
        }
        for group in groups
        for seat in group
    ]
    return {"game": game, "rows": rows, "bank": game.bank}


def render_lobby_row(table: Table, seats: Sequence[Seat]) -> str:
    return render_to_string(
        "games/fragments/lobby_row.html",
        {
            "table": table,
            "taken": len(seats),
            "oob": True,
            "locked_ids": gates.gate().locked_tables() & {table.pk},
        },
    )


def render_presence(position: int, online: bool) -> str:
    return render_to_string(
        "games/fragments/presence.html", {"position": position, "online": online, "oob": True}
    )
