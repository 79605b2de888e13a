"""What a seat knows, read from ``game.view(seat)``: its hand, what is public, what is unseen."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from games.engine import CARDS, Card, Game, Phase, View, as_cards, cards_in, next_seat

NOTHING_KNOWN: frozenset[Card] = frozenset()


def worth(card: Card, trump: str) -> int:
    """How much a card is worth keeping: by rank, and any trump above any other card."""
    return card.rank - 6 + (9 if card.suit == trump else 0)


@dataclass(frozen=True)
class Knowledge:
    """One seat's picture of the game."""

    seat: int
    players: int
    hand: tuple[Card, ...]
    counts: tuple[int, ...]
    known: tuple[frozenset[Card], ...]
    table: tuple[tuple[Card, Card | None], ...]
    discard: tuple[Card, ...]
    trump: str
    trump_card: Card | None
    talon: int
    set_aside: int
    round: int
    phase: Phase
    attacker: int
    defender: int
    limit: int
    taken: bool
    passed: frozenset[int]
    finished: tuple[tuple[int, ...], ...]
    in_game: tuple[bool, ...]

    @cached_property
    def unseen(self) -> frozenset[Card]:
        """Every card that could be in another hand's unknown part or in the talon above the
        face-up card (or, in a partial deal, set aside)."""
        seen = set(self.hand).union(self.discard, self.on_table, *self.known)
        if self.trump_card is not None and self.talon:
            seen.add(self.trump_card)
        return frozenset(card for card in CARDS if card not in seen)

    @property
    def on_table(self) -> list[Card]:
        return [card for pair in self.table for card in pair if card is not None]

    @property
    def unbeaten(self) -> list[Card]:
        return [attack for attack, defence in self.table if defence is None]

    def hidden(self, seat: int) -> int:
        """How many cards of that seat's hand nobody but its owner knows."""
        return self.counts[seat] - len(self.known[seat])

    def may_hold(self, seat: int) -> set[Card]:
        """Every card that seat could be holding, as far as this seat can tell."""
        if seat == self.seat:
            return set(self.hand)
        return set(self.known[seat]) | (set(self.unseen) if self.hidden(seat) else set())

    def next_in_game(self, seat: int) -> int:
        """R2: the next seat clockwise that has not finished."""
        return next_seat(seat, self.in_game)


def read(view: View) -> Knowledge:
    """A seat's knowledge from its view (``game.view(seat)``)."""
    seat = view["seat"]
    if seat is None:
        raise ValueError("a bot plays a seat: the spectators' view has none")
    counts = tuple(view["counts"])
    players = len(counts)
    known = tuple(
        frozenset() if other == seat else frozenset(as_cards(view["known"][other]))
        for other in range(players)
    )
    trump_card = view["trump_card"]
    return Knowledge(
        seat=seat,
        players=players,
        hand=tuple(as_cards(view["hand"])),
        counts=counts,
        known=known,
        table=tuple(_pair(pair) for pair in view["table"]),
        discard=tuple(as_cards(view["discarded"])),
        trump=view["trump"],
        trump_card=None if trump_card is None else Card.parse(trump_card),
        talon=view["talon"],
        set_aside=view["set_aside"],
        round=view["round"],
        phase=Phase(view["phase"]),
        attacker=view["attacker"],
        defender=view["defender"],
        limit=view["limit"],
        taken=view["taken"],
        passed=frozenset(view["passed"]),
        finished=tuple(tuple(group) for group in view["finished"]),
        in_game=tuple(view["in_game"]),
    )


def _pair(pair: list[str | None]) -> tuple[Card, Card | None]:
    """A view's ``[attack, defence or None]`` as cards."""
    attack, defence = pair
    if attack is None:
        raise ValueError(f"a pair on the table leads with a card, not {pair!r}")
    return Card.parse(attack), None if defence is None else Card.parse(defence)


def of_game(game: Game, seat: int) -> Knowledge:
    """What ``read(game.view(seat))`` gives, taken from the game itself: for the playouts of a
    search, whose games are made-up deals anyway, where the view's round trip through strings
    would cost a third of the time. It reads the game's card sets as they are kept, and spells
    out as cards only the seat's own hand and what the others are known to hold."""
    hand_bits = game.hand_bits
    return Knowledge(
        seat=seat,
        players=game.players,
        hand=tuple(cards_in(hand_bits[seat])),
        counts=tuple(bits.bit_count() for bits in hand_bits),
        known=tuple(
            NOTHING_KNOWN if other == seat or not bits else frozenset(cards_in(bits))
            for other, bits in enumerate(game.known_bits)
        ),
        table=tuple(zip(game.attacks, game.defences, strict=True)),
        discard=tuple(game.discarded),
        trump=game.trump,
        trump_card=game.trump_card,
        talon=len(game.talon),
        set_aside=game.set_aside,
        round=game.round,
        phase=game.phase,
        attacker=game.attacker,
        defender=game.defender,
        limit=game.limit,
        taken=game.taken,
        passed=frozenset(game.passed),
        finished=tuple(tuple(group) for group in game.finished),
        in_game=tuple(game.in_game),
    )
