"""What one seat may see (ENGINE view): the only game state that may reach a screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import cards_in, codes
from .phase import Phase

if TYPE_CHECKING:
    from .game import Game


def view(game: Game, seat: int | None) -> dict[str, Any]:
    """``seat``'s view, or the spectators' one for ``None``; JSON-ready, cards as strings.

    Besides the seat's own hand it holds only public knowledge: what lies on the table, the
    discard pile (everyone saw those cards on the table), the face-up trump card, and the
    cards each other seat is known to hold (picked up from the table, or the trump card drawn
    from the talon) until they are played. So a bot can tell the unknown cards from the view
    alone: the 36 cards less its hand, the table, the discard pile, the known cards and the
    trump card still at the bottom of the talon (and, in a partial deal set up by a test, the
    ``set_aside`` cards nobody saw).

    Keys: ``seat`` (the viewer, None for spectators); ``players``; ``hand`` (the viewer's cards,
    lowest first; empty for spectators); ``counts`` (cards per seat); ``known`` (per seat, the
    cards known to be in that hand, lowest first; the viewer's own entry is empty); ``table``
    (``[attack, defence or None]`` in the order played); ``trump``, ``trump_card``; ``talon``
    (cards left), ``discard`` (count), ``discarded`` (the cards beaten off the table, in order),
    ``set_aside``; ``phase`` (lead, defend, closing, over); ``round``; ``attacker`` (the seat
    that led), ``defender``; ``roles`` (per seat: attacker, defender, finished, durak);
    ``in_game`` (per seat); ``limit`` (R9); ``taken``; ``passed`` (seats); ``deadline`` and
    ``waiting_for`` (what it ends: lead, defence, window, close); ``finished`` (the groups in
    order); ``durak``.
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
        "phase": game.phase.value,
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


def _role(game: Game, seat: int) -> str:
    if seat == game.durak:
        return "durak"
    if not game.in_game[seat]:
        return "finished"
    if game.phase == Phase.OVER:
        return "finished"
    return "defender" if seat == game.defender else "attacker"


def _waiting_for(game: Game) -> str | None:
    """What ``deadline`` is: the attacker's lead or the defender's answer (R15), the closing
    window (R10), or the 1 s close (R10)."""
    if game.phase == Phase.CLOSING:
        return "close" if game.deadline == game.close_at else "window"
    if game.phase == Phase.OVER:
        return None
    return "lead" if game.phase == Phase.LEAD else "defence"
