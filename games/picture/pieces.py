"""The game section as pieces, each drawn from a small context of its own.

Every piece (a seat, the deck, a pair on the table, the hand, the buttons...) is an element
with an id whose whole markup comes from its context, so two versions of the section tell
what changed by comparing contexts, and only the pieces that changed are drawn and sent:
`Section.changes_since` gives them as out-of-band swaps on top of the earlier version, with
`#game-attrs` saying which version they apply to. `Section.draw` gives the whole section, as
a connecting page gets it; a page that applied every change shows exactly that.

A piece's id is spelled here only: its template (or its drawer in code,
`games.picture.drawn_in_code`) writes the `id` it is given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.engine import SUIT_SYMBOLS, Action, Pass, Role, Take, Transfer, View, Waiting
from games.engine import Game as EngineGame
from games.models import SeatInfo
from games.picture import hints
from games.picture.drawn_in_code import DRAWN_IN_CODE
from games.picture.hand import hand_cards
from games.picture.words import CardFace, face_in, role_name_in

PIECES = "games/fragments/game/"
HAND = "hand"
SPACES = re.compile(r"\s+")
"""A run of white space in markup reads as one space; the pieces travel as small as that."""


@dataclass(slots=True)
class Piece:
    template: str
    id: str
    context: dict[str, Any]
    """Everything the template reads besides the id: equal contexts draw equal markup."""

    def draw(self, language: str | None, *, oob: bool = False, **drawn: str) -> SafeString:
        """Its markup in `language`, the one active where the section was built."""
        key = tuple(self.context.items())
        if drawn:
            key += tuple(drawn.items())
        return SafeString(drawn_piece(self.template, self.id, key, oob, language))


ATTRIBUTES = "game-attrs"


def drawn_attributes(id: str, context: dict[str, Any], oob: bool) -> str:
    """The `#game-attrs` element: what the `#game` section says of the game, the reader and
    the version, as data attributes the page copies onto `#game`. It is new on every version
    for every audience, so it is written here rather than drawn from a template and kept in
    the cache of drawn pieces (it would only push out drawings that do come again)."""
    values = {
        "version": context["version"],
        "phase": context["phase"],
        "seat": optional(context["seat"]),
        "role": context["role"],
        "game-id": context["game_id"],
        "me-class": context["me_class"],
        "new-defender": optional(context["new_defender"]),
        "seats": context["seats"],
        "deadline": context["deadline_ms"] or "",
        "kind": context["kind"],
        "now": context["now_ms"],
    }
    if context["base"] is not None:
        values["base"] = context["base"]
    data = " ".join(
        f'data-{name}="{escape(value) if isinstance(value, str) else value}"'
        for name, value in values.items()
    )
    swapped = ' hx-swap-oob="true"' if oob else ""
    return f'<div id="{escape(id)}"{swapped} hidden {data}></div>'


def optional(value: Any) -> Any:
    return "" if value is None else value


@lru_cache(maxsize=65536)
def drawn_piece(
    template: str,
    id: str,
    context: tuple[tuple[str, Any], ...],
    oob: bool,
    language: str | None,
) -> str:
    """A piece's markup: the same for every audience that reads it in one language, and
    for every version that leaves its context as it was. Kept as a plain string, which the
    garbage collector never looks at (a `SafeString` it would walk at every collection of
    the oldest objects, and the cache holds tens of thousands)."""
    return SPACES.sub(" ", draw_anew(template, id, dict(context), oob)).strip()


def draw_anew(template: str, id: str, context: dict[str, Any], oob: bool) -> str:
    """A piece's markup from its drawer in code (`games.picture.drawn_in_code`), else from its
    template."""
    drawer = DRAWN_IN_CODE.get(template)
    if drawer is not None:
        return drawer(context, id, oob)
    return render_to_string(f"{PIECES}{template}.html", {**context, "id": id, "oob": oob})


def swap(how: str, *, target: str = "", id: str = "", pieces: Iterable[str] = ()) -> SafeString:
    """An out-of-band swap that is no piece itself: `pieces` put `how` ("beforeend",
    "beforebegin") the element `target`, or the element `id` deleted (`how` "delete")."""
    named = f' id="{escape(id)}"' if id else ""
    where = f"{how}:#{target}" if target else how
    return SafeString(f'<div{named} hx-swap-oob="{escape(where)}">{"".join(pieces)}</div>')


def render_presence(position: int, online: bool) -> str:
    """A seat's mark of whether its player is here, swapped in on its own when they come
    or go (the seats' name pieces draw it too)."""
    return render_to_string(
        "games/fragments/presence.html", {"position": position, "online": online, "oob": True}
    )


@dataclass(slots=True)
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

    def draw(self, language: str | None) -> SafeString:
        f = self.frame
        inside = " ".join(piece.draw(language) for piece in self.pieces)
        return SafeString(
            f'<div id="{escape(f["id"])}" class="{escape(f["seat_class"])}"'
            f' data-seat="{f["position"]}" data-cards="{f["count"]}"'
            f' data-role="{escape(f["role"])}"> {inside} </div>'
        )


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
    language: str | None
    """The language it is drawn in: the one active where it was built."""

    @property
    def version(self) -> int:
        return int(self.attrs["version"])

    def draw(self) -> str:
        drawn = {
            "attrs": self.attributes(),
            "seats": [seat.draw(self.language) for seat in self.seats],
            "deck": self.drawn_deck(),
            "table": self.drawn_table(),
            "headline": self.headline.draw(self.language),
            "round": self.round.draw(self.language),
            "countdown": self.countdown.draw(self.language),
            "mine": [self.drawn_mine(piece) for piece in self.mine],
            "chips": self.chips.draw(self.language) if self.chips is not None else "",
        }
        return render_to_string("games/fragments/game.html", {"attrs": self.attrs, "drawn": drawn})

    def drawn_deck(self) -> SafeString:
        inside = "".join(piece.draw(self.language) for piece in self.deck)
        return SafeString(f'<div id="deck" class="deck">{inside}</div>')

    def drawn_table(self, *, oob: bool = False) -> SafeString:
        pairs = SafeString("".join(pair.draw(self.language) for pair in self.pairs))
        return self.table.draw(self.language, oob=oob, pairs_html=pairs)

    def drawn_mine(self, piece: Piece, *, oob: bool = False) -> SafeString:
        language = self.language
        if piece.id != HAND:
            return piece.draw(language, oob=oob)
        cards = SafeString("".join(card.draw(language) for card in self.cards))
        return piece.draw(language, oob=oob, cards_html=cards)

    def attributes(self, base: int | None = None, *, oob: bool = False) -> SafeString:
        """`#game-attrs`, for a change applied on top of version `base` if given."""
        countdown = self.countdown.context
        context = {
            **self.attrs,
            "seats": " ".join(seat.state for seat in self.seats),
            "deadline_ms": countdown["deadline_ms"],
            "kind": countdown["kind"],
            "base": base,
        }
        return SafeString(drawn_attributes(ATTRIBUTES, context, oob))

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
        changed: list[str] = [self.attributes(base=earlier.version, oob=True)]
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
        changed += [
            now.draw(self.language, oob=True)
            for before, now in pieces
            if before.context != now.context
        ]
        changed += self.hand_changes(earlier)
        changed.append(self.headline.draw(self.language, oob=True))
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
        changed: list[str] = [swap("delete", id=card) for card in before if card not in kept]
        changed += [
            card.draw(self.language, oob=True)
            for card in self.cards
            if card.id in kept and before[card.id].context != card.context
        ]
        coming: list[str] = []
        for card in self.cards:
            if card.id not in kept:
                coming.append(card.draw(self.language))
            elif coming:
                changed.append(swap("beforebegin", target=card.id, pieces=coming))
                coming = []
        if coming:
            changed.append(swap("beforeend", target=hand.id, pieces=coming))
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
            new.draw(self.language, oob=True)
            for old, new in zip(before, now, strict=False)
            if old.context != new.context
        ]
        added = now[len(before) :]
        if added:
            pairs = (pair.draw(self.language) for pair in added)
            changed.append(swap("beforeend", target=self.table.id, pieces=pairs))
        return changed


def waited_on(view: View) -> int | None:
    """The player the move timer of R15 runs for, if any."""
    waiting = view["waiting_for"]
    if waiting == Waiting.LEAD:
        return int(view["attacker"])
    if waiting == Waiting.DEFENCE:
        return int(view["defender"])
    return None


@dataclass(frozen=True)
class Sight:
    """What the builders of a section read: the game as one seat sees it (None: the
    spectators), who sits where, and what the version's news and bot schedule tell."""

    view: View
    seat: int | None
    names: Sequence[SeatInfo]
    legal: Sequence[Action]
    thinking: frozenset[int]
    """Bot seats whose move is due."""
    new_defender: int | None
    """The seat a transfer just made the defender, as the headline tells it."""
    language: str | None
    """The language the section is drawn in."""
    waited: int | None
    """The player the move timer of R15 runs for (`waited_on`)."""
    deadline_ms: int | None
    """When the move timer runs out, in milliseconds."""

    @classmethod
    def of(
        cls,
        engine: EngineGame,
        names: Sequence[SeatInfo],
        seat: int | None,
        thinking: Iterable[int],
        headline: dict[str, Any] | None,
        language: str | None,
    ) -> Sight:
        view = engine.view(seat)
        deadline = view["deadline"]
        return cls(
            view=view,
            seat=seat,
            names=names,
            legal=engine.legal_actions(seat) if seat is not None else [],
            thinking=frozenset(thinking),
            new_defender=headline["defender"] if headline is not None else None,
            language=language,
            waited=waited_on(view),
            deadline_ms=int(deadline * 1000) if deadline else None,
        )

    def face(self, code: str) -> CardFace:
        return face_in(code, self.language)

    def role_name(self, role: Role) -> str:
        return role_name_in(role, self.language)

    def label(self, position: int) -> str:
        """What the player at `position` is called (`SeatInfo.label`)."""
        return self.names[position].label_in(self.language)

    @property
    def role(self) -> Role:
        return self.view["roles"][self.seat] if self.seat is not None else Role.SPECTATOR

    def waits_for(self, position: int | None) -> bool:
        """Whether `position` is the one the move timer of R15 waits for (None is no one)."""
        return position is not None and position == self.waited

    def timed(self, position: int) -> bool:
        """Whether the move timer runs for `position` now."""
        return bool(self.deadline_ms and self.waits_for(position))

    def others(self) -> list[int]:
        """The other players' positions, from the reader's left."""
        order = list(range(self.view["players"]))
        if self.seat is not None:
            order = order[self.seat :] + order[: self.seat]
        return [position for position in order if position != self.seat]


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
    language: str | None = None,
) -> Section:
    """The section as `seat` (None: a spectator) sees the game, from `engine.view(seat)`, in
    `language`, which must be the active one (by default whichever is)."""
    if language is None:
        language = get_language()
    sight = Sight.of(engine, seats, seat, bots_thinking, headline, language)
    pairs = table_pairs(sight)
    return Section(
        attrs=game_attrs(sight, row_id, version, now),
        seats=tuple(other_seat(sight, position) for position in sight.others()),
        deck=deck(sight),
        table=table(sight, bool(pairs)),
        pairs=pairs,
        headline=news(headline),
        round=round_info(sight),
        countdown=countdown(sight, engine.rules.throw_in_window),
        mine=mine(sight),
        cards=hand(sight),
        chips=Piece("chips", "chips-now", {"balance": balance}) if balance is not None else None,
        language=sight.language,
    )


def game_attrs(sight: Sight, row_id: int, version: int, now: float) -> dict[str, Any]:
    """What the `#game` element says of the game and of the reader's place in it."""
    phase = sight.view["phase"]
    return {
        "version": version,
        "phase": str(phase),
        "seat": sight.seat,
        "role": sight.role,
        "game_id": row_id,
        "game_class": f"game phase-{phase}",
        "me_class": me_class(sight),
        "new_defender": sight.new_defender,
        "now_ms": int(now * 1000),
    }


def me_class(sight: Sight) -> str:
    names = f"me role-{sight.role}"
    if sight.seat is not None and sight.new_defender == sight.seat:
        names += " new-defender"
    if sight.waits_for(sight.seat):
        names += " waited-on"
    return names


def other_seat(sight: Sight, position: int) -> Seat:
    view = sight.view
    count, role = view["counts"][position], view["roles"][position]
    waited = sight.waits_for(position)
    seat_class = f"seat role-{role}"
    if waited:
        seat_class += " waited-on"
    if sight.new_defender == position:
        seat_class += " new-defender"
    seat_id = f"seat-{position}"
    frame = {
        "id": seat_id,
        "position": position,
        "count": count,
        "role": role,
        "waited_on": waited,
        "seat_class": seat_class,
    }
    status = {
        "role_name": sight.role_name(role),
        "passed": position in view["passed"],
        "thinking": position in sight.thinking,
        "timed": sight.timed(position),
    }
    known = tuple(sight.face(code) for code in view["known"][position])
    pieces = (
        Piece("seat_name", f"{seat_id}-name", {"info": sight.names[position]}),
        Piece("seat_status", f"{seat_id}-status", status),
        Piece("seat_backs", f"{seat_id}-backs", {"count": count, "backs": range(min(count, 12))}),
        Piece("seat_known", f"{seat_id}-known", {"known": known}),
    )
    return Seat(frame, pieces)


def deck(sight: Sight) -> tuple[Piece, ...]:
    view = sight.view
    trump = view["trump"]
    stock = {
        "trump_card": sight.face(view["trump_card"]) if view["trump_card"] else None,
        "trump_symbol": SUIT_SYMBOLS[trump],
        "trump_red": trump in "HD",
        "talon_left": bool(view["talon"]),
    }
    return (
        Piece("stock", "stock", stock),
        Piece("talon", "talon", {"talon": view["talon"]}),
        Piece("discard", "discard", {"discard": view["discard"]}),
    )


def table_pairs(sight: Sight) -> tuple[Piece, ...]:
    return tuple(
        Piece(
            "pair",
            f"pair-{index}",
            {
                "attack": sight.face(attack),
                "defence": sight.face(defence) if defence else None,
            },
        )
        for index, (attack, defence) in enumerate(sight.view["table"])
        if attack
    )


def table(sight: Sight, has_pairs: bool) -> Piece:
    """The table around its pairs, and the line it shows while nothing lies on it."""
    view = sight.view
    leading = view["phase"] == "lead"
    return Piece(
        "table",
        "table",
        {
            "leading": leading and not has_pairs,
            "my_lead": leading and sight.seat == view["attacker"],
            "attacker_name": sight.label(view["attacker"]) if leading else "",
        },
    )


def news(headline: dict[str, Any] | None) -> Piece:
    shown = headline or {"kind": "", "text": ""}
    return Piece("headline", "headline", {"kind": shown["kind"], "text": shown["text"]})


def round_info(sight: Sight) -> Piece:
    view = sight.view
    return Piece(
        "round",
        "round-info",
        {
            "round": view["round"],
            "attacker_name": sight.label(view["attacker"]),
            "defender_name": sight.label(view["defender"]),
            "limit": view["limit"],
        },
    )


def countdown(sight: Sight, throw_in_window: float) -> Piece:
    view = sight.view
    return Piece(
        "countdown",
        "countdown",
        {
            "deadline_ms": sight.deadline_ms,
            "kind": view["waiting_for"] or "",
            "window_ms": int(throw_in_window * 1000),
            "closing": view["phase"] == "closing",
        },
    )


def mine(sight: Sight) -> tuple[Piece, ...]:
    """The reader's own seat: name, hint, hand and buttons (none for a spectator)."""
    if sight.seat is None:
        return ()
    me = {
        "me": sight.names[sight.seat],
        "role_name": sight.role_name(sight.role),
        "timed": sight.timed(sight.seat),
    }
    return (
        Piece("me_name", "me-name", me),
        Piece("hint", "hint", {"hint": hints.hint(sight.view, sight.legal)}),
        Piece("hand", HAND, {}),
        actions(sight.legal),
    )


def actions(legal: Sequence[Action]) -> Piece:
    return Piece(
        "actions",
        "actions",
        {
            "can_take": any(isinstance(action, Take) for action in legal),
            "can_pass": any(isinstance(action, Pass) for action in legal),
            "transfers": tuple(
                str(action.card) for action in legal if isinstance(action, Transfer)
            ),
        },
    )


def hand(sight: Sight) -> tuple[Piece, ...]:
    """The cards of the reader's hand, each with what tapping it does."""
    if sight.seat is None:
        return ()
    return tuple(
        Piece("hand_card", f"{HAND}-{card.face.code}", {"card": card})
        for card in hand_cards(sight.view, sight.legal, sight.language)
    )
