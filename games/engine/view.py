"""What one seat may see (ENGINE view): the only game state that may reach a screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from .cards import cards_in, codes
from .phase import Phase, Role, Waiting

if TYPE_CHECKING:
    from .game import Game


class View(TypedDict):
    """What ``Game.view`` gives: JSON-ready, cards as strings, lists of cards lowest first."""

    seat: int | None
    """The viewer; None for spectators."""
    players: int
    hand: list[str]
    """The viewer's cards; empty for spectators."""
    counts: list[int]
    """Cards in each seat's hand."""
    known: list[list[str]]
    """Per seat, the cards known to be in that hand; the viewer's own entry is empty."""
    table: list[list[str | None]]
    """``[attack, defence or None]`` in the order played."""
    trump: str
    trump_card: str | None
    talon: int
    """Cards left in it."""
    discard: int
    """How many cards are out of play (``discarded`` and ``set_aside``)."""
    discarded: list[str]
    """The cards beaten off the table, in that order."""
    set_aside: int
    """Cards a partial deal left out: counted in ``discard``, seen by nobody."""
    phase: Phase
    round: int
    attacker: int
    """The seat that led."""
    defender: int
    roles: list[Role]
    """Per seat."""
    in_game: list[bool]
    """Per seat."""
    limit: int
    """R9."""
    taken: bool
    passed: list[int]
    """Seats, ascending."""
    deadline: float | None
    waiting_for: Waiting | None
    """What ``deadline`` ends."""
    finished: list[list[int]]
    """The finishing groups in order."""
    durak: int | None


def view(game: Game, seat: int | None) -> View:
    """``seat``'s view, or the spectators' one for ``None``.

    Besides the seat's own hand it holds only public knowledge: what lies on the table, the
    discard pile (everyone saw those cards on the table), the face-up trump card, and the
    cards each other seat is known to hold (picked up from the table, or the trump card drawn
    from the talon) until they are played. So a bot can tell the unknown cards from the view
    alone: the 36 cards less its hand, the table, the discard pile, the known cards and the
    trump card still at the bottom of the talon (and, in a partial deal set up by a test, the
    ``set_aside`` cards nobody saw).
    """
    players = range(game.players)
    if seat is not None and seat not in players:
        raise ValueError(f"there is no seat {seat!r} at this table")
    trump_card = game.trump_card
    return {
        "seat": seat,
        "players": game.players,
        "hand": [] if seat is None else codes(cards_in(game.hand_bits[seat])),
        "counts": [bits.bit_count() for bits in game.hand_bits],
        "known": [
            [] if other == seat else codes(cards_in(game.known_bits[other])) for other in players
        ],
        "table": [
            [attack.code, None if defence is None else defence.code]
            for attack, defence in zip(game.attacks, game.defences, strict=True)
        ],
        "trump": game.trump,
        "trump_card": None if trump_card is None else trump_card.code,
        "talon": len(game.talon),
        "discard": game.discard,
        "discarded": codes(game.discarded),
        "set_aside": game.set_aside,
        "phase": game.phase,
        "round": game.round,
        "attacker": game.attacker,
        "defender": game.defender,
        "roles": [_role(game, other) for other in players],
        "in_game": list(game.in_game),
        "limit": game.limit,
        "taken": game.taken,
        "passed": sorted(game.passed),
        "deadline": game.deadline,
        "waiting_for": _waiting_for(game),
        "finished": [list(group) for group in game.finished],
        "durak": game.durak,
    }


def _role(game: Game, seat: int) -> Role:
    if seat == game.durak:
        return Role.DURAK
    if not game.in_game[seat] or game.phase == Phase.OVER:
        return Role.FINISHED
    return Role.DEFENDER if seat == game.defender else Role.ATTACKER


def _waiting_for(game: Game) -> Waiting | None:
    """What ``deadline`` is: the attacker's lead or the defender's answer (R15), the closing
    window (R10), or the 1 s close (R10)."""
    if game.phase == Phase.CLOSING:
        return Waiting.CLOSE if game.deadline == game.close_at else Waiting.WINDOW
    if game.phase == Phase.OVER:
        return None
    return Waiting.LEAD if game.phase == Phase.LEAD else Waiting.DEFENCE
