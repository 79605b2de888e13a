"""The game section as pieces, each drawn from a small context of its own.

Every piece (a seat, the deck, a pair on the table, the hand, the buttons...) is an element
with an id whose whole markup comes from its context, so two versions of the section tell
what changed by comparing contexts, and only the pieces that changed are drawn and sent:
`Section.changes_since` gives them as out-of-band swaps on top of the earlier version, with
`#game-attrs` saying which version they apply to. `Section.draw` gives the whole section, as
a connecting page gets it; a page that applied every change shows exactly that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.engine import SUIT_SYMBOLS, Pass, Role, Take, Transfer, View, Waiting
from games.engine import Game as EngineGame
from games.models import SeatInfo
from games.picture import hints
from games.picture.hand import hand_cards
from games.picture.words import CardFace, role_name

PIECES = "games/fragments/game/"
HAND = "hand"
SPACES = re.compile(r"\s+")
"""A run of white space in markup reads as one space; the pieces travel as small as that."""


@dataclass(frozen=True)
class Piece:
    template: str
    id: str
    context: dict[str, Any]
    """Everything the template reads: equal contexts draw equal markup."""

    def draw(self, *, oob: bool = False, **drawn: str) -> SafeString:
        key = tuple(self.context.items()) + tuple(drawn.items())
        return drawn_piece(self.template, key, oob, get_language())


@lru_cache(maxsize=65536)
def drawn_piece(
    template: str, context: tuple[tuple[str, Any], ...], oob: bool, language: str | None
) -> SafeString:
    """A piece's markup: the same for every audience that reads it in one language, and
    for every version that leaves its context as it was."""
    html = render_to_string(f"{PIECES}{template}.html", {**dict(context), "oob": oob})
    return mark_safe(SPACES.sub(" ", html).strip())


def render_presence(position: int, online: bool) -> str:
    """A seat's mark of whether its player is here, swapped in on its own when they come
    or go (the seats' name pieces draw it too)."""
    return render_to_string(
        "games/fragments/presence.html", {"position": position, "online": online, "oob": True}
    )


@dataclass(frozen=True)
class Seat:
    """Another player's seat: its name, its status line, its card backs and the cards known
    to be in its hand are pieces; what its element says of it (cards, role, whether the
    timer runs for it) travels in `#game-attrs`."""

    frame: dict[str, Any]
    pieces: tuple[Piece, ...]

    @property
    def state(self) -> str:
        f = self.frame
        return f"{f['position']}:{f['count']}:{f['role']}:{int(f['waited_on'])}"

    def draw(self) -> SafeString:
        drawn = dict(
            zip(("name", "status", "backs", "known"), (p.draw() for p in self.pieces), strict=True)
        )
        html = render_to_string(f"{PIECES}seat.html", {**self.frame, **drawn})
        return mark_safe(html.strip())


@dataclass(frozen=True)
class Section:
    """The `#game` section of a running game for one audience at one version."""

    attrs: dict[str, Any]
    seats: tuple[Seat, ...]
    """The other players' seats, from the reader's left."""
    deck: tuple[Piece, ...]
    """The trump card and the talon's back, the talon's count, the discard's count."""
    table: Piece
    pairs: tuple[Piece, ...]
    headline: Piece
    round: Piece
    countdown: Piece
    mine: tuple[Piece, ...]
    """The reader's own seat: name, hint, hand and buttons (none for a spectator)."""
    cards: tuple[Piece, ...]
    """The cards of the reader's hand, each a piece of its own inside the hand's."""
    chips: Piece | None

    @property
    def version(self) -> int:
        return int(self.attrs["version"])

    def draw(self) -> str:
        drawn = {
            "attrs": self.attributes().draw(),
            "seats": [seat.draw() for seat in self.seats],
            "deck": self.drawn_deck(),
            "table": self.drawn_table(),
            "headline": self.headline.draw(),
            "round": self.round.draw(),
            "countdown": self.countdown.draw(),
            "mine": [self.drawn_mine(piece) for piece in self.mine],
            "chips": self.chips.draw() if self.chips is not None else "",
        }
        return render_to_string("games/fragments/game.html", {"attrs": self.attrs, "drawn": drawn})

    def drawn_deck(self) -> SafeString:
        stock, talon, discard = (piece.draw() for piece in self.deck)
        html = render_to_string(
            f"{PIECES}deck.html", {"stock": stock, "talon": talon, "discard": discard}
        )
        return mark_safe(html.strip())

    def drawn_table(self, *, oob: bool = False) -> SafeString:
        pairs = mark_safe("".join(pair.draw() for pair in self.pairs))
        return self.table.draw(oob=oob, pairs_html=pairs)

    def drawn_mine(self, piece: Piece, *, oob: bool = False) -> SafeString:
        if piece.id != HAND:
            return piece.draw(oob=oob)
        return piece.draw(
            oob=oob, cards_html=mark_safe("".join(card.draw() for card in self.cards))
        )

    def attributes(self, base: int | None = None) -> Piece:
        seats = " ".join(seat.state for seat in self.seats)
        countdown = self.countdown.context
        return Piece(
            "attrs",
            "game-attrs",
            {
                **self.attrs,
                "seats": seats,
                "deadline_ms": countdown["deadline_ms"],
                "kind": countdown["kind"],
                "base": base,
            },
        )

    def changes_since(self, earlier: Section) -> str | None:
        """The pieces that differ from `earlier`, as swaps a page showing `earlier` applies;
        None when the two are not one game seen from one place (draw it whole then)."""
        if (
            earlier.attrs["game_id"] != self.attrs["game_id"]
            or earlier.attrs["seat"] != self.attrs["seat"]
            or [seat.frame["position"] for seat in earlier.seats]
            != [seat.frame["position"] for seat in self.seats]
            or len(earlier.mine) != len(self.mine)
        ):
            return None
        changed: list[str] = [self.attributes(base=earlier.version).draw(oob=True)]
        pieces = [
            *(
                pair
                for before, now in zip(earlier.seats, self.seats, strict=True)
                for pair in zip(before.pieces, now.pieces, strict=True)
            ),
            *zip(earlier.deck, self.deck, strict=True),
            (earlier.round, self.round),
            *zip(earlier.mine, self.mine, strict=True),
        ]
        if earlier.chips is not None and self.chips is not None:
            pieces.append((earlier.chips, self.chips))
        changed += [now.draw(oob=True) for before, now in pieces if before.context != now.context]
        changed += self.hand_changes(earlier)
        changed.append(self.headline.draw(oob=True))
        changed += self.table_changes(earlier)
        return "".join(changed)

    def hand_changes(self, earlier: Section) -> list[str]:
        """The cards that left the hand, those whose use changed and those that came (each
        before the card it now precedes: the hand keeps its order), or the whole hand when
        that is shorter."""
        hand = next((piece for piece in self.mine if piece.id == HAND), None)
        if hand is None:
            return []
        before = {card.id: card for card in earlier.cards}
        kept = {card.id for card in self.cards} & before.keys()
        changed = [
            f'<div id="{card}" hx-swap-oob="delete"></div>' for card in before if card not in kept
        ]
        changed += [
            card.draw(oob=True)
            for card in self.cards
            if card.id in kept and before[card.id].context != card.context
        ]
        coming: list[str] = []
        for card in self.cards:
            if card.id not in kept:
                coming.append(card.draw())
            elif coming:
                changed.append(f'<div hx-swap-oob="beforebegin:#{card.id}">{"".join(coming)}</div>')
                coming = []
        if coming:
            changed.append(f'<div hx-swap-oob="beforeend:#{HAND}">{"".join(coming)}</div>')
        if not changed:
            return []
        whole = self.drawn_mine(hand, oob=True)
        return [whole] if len(whole) < sum(map(len, changed)) else changed

    def table_changes(self, earlier: Section) -> list[str]:
        """A pair that was beaten, pairs that were added, or the whole table when it was
        cleared, started or its empty line changed."""
        before, now = earlier.pairs, self.pairs
        if earlier.table.context != self.table.context or not before or len(now) < len(before):
            return [self.drawn_table(oob=True)]
        changed: list[str] = [
            new.draw(oob=True)
            for old, new in zip(before, now, strict=False)
            if old.context != new.context
        ]
        added = now[len(before) :]
        if added:
            pairs = "".join(pair.draw() for pair in added)
            changed.append(f'<div hx-swap-oob="beforeend:#table">{pairs}</div>')
        return changed


def waited_on(view: View, position: int) -> bool:
    """The player the move timer of R15 runs for."""
    waiting = view["waiting_for"]
    if waiting == Waiting.LEAD:
        return position == int(view["attacker"])
    if waiting == Waiting.DEFENCE:
        return position == int(view["defender"])
    return False


def other_seat(
    view: View,
    info: SeatInfo,
    thinking: bool,
    deadline_ms: int | None,
    new_defender: int | None,
) -> Seat:
    position = info.position
    count, role = view["counts"][position], view["roles"][position]
    waited = waited_on(view, position)
    seat_class = f"seat role-{role}"
    if waited:
        seat_class += " waited-on"
    if new_defender == position:
        seat_class += " new-defender"
    frame = {
        "position": position,
        "count": count,
        "role": role,
        "waited_on": waited,
        "seat_class": seat_class,
    }
    pieces = (
        Piece("seat_name", f"seat-{position}-name", {"info": info}),
        Piece(
            "seat_status",
            f"seat-{position}-status",
            {
                "position": position,
                "role_name": role_name(role),
                "passed": position in view["passed"],
                "thinking": thinking,
                "timed": bool(deadline_ms and waited),
            },
        ),
        Piece(
            "seat_backs",
            f"seat-{position}-backs",
            {"position": position, "count": count, "backs": range(min(count, 12))},
        ),
        Piece(
            "seat_known",
            f"seat-{position}-known",
            {
                "position": position,
                "known": tuple(CardFace.of(code) for code in view["known"][position]),
            },
        ),
    )
    return Seat(frame, pieces)


def section(
    row_id: int,
    version: int,
    engine: EngineGame,
    seats: Sequence[SeatInfo],
    seat: int | None,
    *,
    now: float,
    bots_thinking: Iterable[int] = (),
    headline: dict[str, Any] | None = None,
    balance: int | None = None,
) -> Section:
    """The section as `seat` (None: a spectator) sees the game, from `engine.view(seat)`."""
    view = engine.view(seat)
    legal = engine.legal_actions(seat) if seat is not None else []
    role = view["roles"][seat] if seat is not None else Role.SPECTATOR
    thinking = set(bots_thinking)
    deadline_ms = int(view["deadline"] * 1000) if view["deadline"] else None
    order = list(range(view["players"]))
    if seat is not None:
        order = order[seat:] + order[:seat]
    new_defender = headline["defender"] if headline is not None else None
    mine_waited_on = seat is not None and waited_on(view, seat)
    me_class = f"me role-{role}"
    if seat is not None and new_defender == seat:
        me_class += " new-defender"
    if mine_waited_on:
        me_class += " waited-on"
    attrs = {
        "version": version,
        "phase": str(view["phase"]),
        "seat": seat,
        "role": role,
        "game_id": row_id,
        "game_class": f"game phase-{view['phase']}",
        "me_class": me_class,
        "new_defender": new_defender,
        "now_ms": int(now * 1000),
    }
    opponents = tuple(
        other_seat(view, seats[position], position in thinking, deadline_ms, new_defender)
        for position in order
        if position != seat
    )
    trump_card = CardFace.of(view["trump_card"]) if view["trump_card"] else None
    deck = (
        Piece(
            "stock",
            "stock",
            {
                "trump_card": trump_card,
                "trump_symbol": SUIT_SYMBOLS[view["trump"]],
                "trump_red": view["trump"] in "HD",
                "talon_left": bool(view["talon"]),
            },
        ),
        Piece("talon", "talon", {"talon": view["talon"]}),
        Piece("discard", "discard", {"discard": view["discard"]}),
    )
    pairs = tuple(
        Piece(
            "pair",
            f"pair-{index}",
            {
                "index": index,
                "attack": CardFace.of(attack),
                "defence": CardFace.of(defence) if defence else None,
            },
        )
        for index, (attack, defence) in enumerate(view["table"])
        if attack
    )
    leading = view["phase"] == "lead"
    table = Piece(
        "table",
        "table",
        {
            "leading": leading and not pairs,
            "my_lead": leading and seat == view["attacker"],
            "attacker_name": seats[view["attacker"]].label if leading else "",
        },
    )
    news = Piece(
        "headline",
        "headline",
        {"kind": headline["kind"], "text": headline["text"]}
        if headline
        else {"kind": "", "text": ""},
    )
    round_info = Piece(
        "round",
        "round-info",
        {
            "round": view["round"],
            "attacker_name": seats[view["attacker"]].label,
            "defender_name": seats[view["defender"]].label,
            "limit": view["limit"],
        },
    )
    countdown = Piece(
        "countdown",
        "countdown",
        {
            "deadline_ms": deadline_ms,
            "kind": view["waiting_for"] or "",
            "window_ms": int(engine.rules.throw_in_window * 1000),
            "closing": view["phase"] == "closing",
        },
    )
    mine: tuple[Piece, ...] = ()
    if seat is not None:
        mine = (
            Piece(
                "me_name",
                "me-name",
                {
                    "me": seats[seat],
                    "role_name": role_name(role),
                    "timed": bool(deadline_ms and mine_waited_on),
                },
            ),
            Piece("hint", "hint", {"hint": hints.hint(view, legal)}),
            Piece("hand", HAND, {}),
            Piece(
                "actions",
                "actions",
                {
                    "can_take": any(isinstance(a, Take) for a in legal),
                    "can_pass": any(isinstance(a, Pass) for a in legal),
                    "transfers": tuple(str(a.card) for a in legal if isinstance(a, Transfer)),
                },
            ),
        )
    cards = tuple(
        Piece("hand_card", f"hand-{card.face.code}", {"card": card})
        for card in (hand_cards(view, legal) if seat is not None else ())
    )
    chips = Piece("chips", "chips-now", {"balance": balance}) if balance is not None else None
    return Section(
        attrs=attrs,
        seats=opponents,
        deck=deck,
        table=table,
        pairs=pairs,
        headline=news,
        round=round_info,
        countdown=countdown,
        mine=mine,
        cards=cards,
        chips=chips,
    )
