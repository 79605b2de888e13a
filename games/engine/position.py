"""A game set up at any moment of play, from what lies where (``Game.from_position``).

Everything the rules fix is worked out rather than given: the phase from the table, the
defender's hand when they became defender (R9: their hand now plus the cards they beat with,
since nobody beats before a transfer), the limit, the cards set aside, who is still in. The
timers run as if the phase had just begun at ``now``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import CARDS, RANK_BITS, Card, as_cards, beats, bits_of
from .deal import check_once, check_players, trump_of
from .limits import cap, nobody_will_throw_in
from .phase import Phase
from .rules import DEFAULT_RULES, Rules

if TYPE_CHECKING:
    from .game import Game

Cards = Iterable[Card | str]


def from_position(
    cls: type[Game],
    hands: Sequence[Cards],
    talon: Cards = (),
    *,
    trump: str | None = None,
    trump_card: Card | str | None = None,
    table: Iterable[tuple[Card | str, Card | str | None]] = (),
    discarded: Cards = (),
    known: Sequence[Cards] | None = None,
    attacker: int,
    defender: int | None = None,
    taken: bool = False,
    passed: Iterable[int] = (),
    round: int = 1,
    finished: Iterable[Iterable[int]] = (),
    finished_this_round: bool = False,
    rules: Rules = DEFAULT_RULES,
    now: float = 0.0,
) -> Game:
    """A game at any moment of a round (``Game.from_position``): the cards in each hand, the
    talon (in draw order, the face-up card last), the table's ``(attack, defence or None)``
    pairs, the discard pile, the cards known to be in each hand (by default only an end-game's
    trump card), the seat that led this round and the one defending now (by default the next
    one), the seats that passed, the round and the finishing groups so far (the last one of this
    round when ``finished_this_round``). Cards in none of these count as set aside. The phase,
    the limit (R9) and who is still in are worked out; the timers start at ``now`` as if the
    phase had just begun. An impossible position raises ``ValueError``."""
    game = cls.__new__(cls)
    hand_cards = [as_cards(hand) for hand in hands]
    players = len(hand_cards)
    check_players(players)
    game.players = players
    game.rules = rules
    game.seed = None
    game.talon = as_cards(talon)
    pairs = [(Card.parse(a), None if d is None else Card.parse(d)) for a, d in table]
    game.attacks = [attack for attack, _ in pairs]
    game.defences = [defence for _, defence in pairs]
    game.discarded = as_cards(discarded)
    beaten = [defence for defence in game.defences if defence is not None]
    every = [card for hand in hand_cards for card in hand]
    every += game.talon + game.attacks + beaten + game.discarded
    check_once(every)
    game.set_aside = len(CARDS) - len(every)
    face_up = None if trump_card is None else Card.parse(trump_card)
    game.trump, game.trump_card = trump_of(game.talon, trump, face_up)
    game.hand_bits = [bits_of(hand) for hand in hand_cards]
    game.known_bits = _known_bits(game, known)
    _seat_the_players(game, attacker, defender, finished, passed, round, finished_this_round)
    _lay_the_table(game, pairs, taken)
    game.durak = None
    game.move_end = game.window_end = game.close_at = None
    remaining = [seat for seat in range(players) if game.in_game[seat]]
    if len(remaining) < 2 and not pairs:
        game.phase, game.taken, game.passed = Phase.OVER, False, set()
        game.held = game.limit = 0
        game.durak = remaining[0] if remaining else None
        return game
    if not pairs:
        if not (game.in_game[game.defender] and game.hand_bits[game.attacker]):
            raise ValueError("a round is led by a seat holding cards to one still in the game (R4)")
        game.phase = Phase.LEAD
        game.move_end = now + rules.move_time
    elif taken or not game.unbeaten:
        game.phase = Phase.CLOSING
        game.window_end = now + rules.throw_in_window
        if nobody_will_throw_in(game):
            game.close_at = now + rules.close_delay
    else:
        game.phase = Phase.DEFEND
        game.move_end = now + rules.move_time
    return game


def _known_bits(game: Game, known: Sequence[Cards] | None) -> list[int]:
    """The cards known to be in each hand; by default only the trump card of an end-game."""
    if known is None:
        shown = game.trump_card.bit if game.trump_card is not None and not game.talon else 0
        return [bits & shown for bits in game.hand_bits]
    if len(known) != game.players:
        raise ValueError(f"known cards are listed for each of the {game.players} seats")
    known_bits = [bits_of(as_cards(cards)) for cards in known]
    for seat, (bits, hand) in enumerate(zip(known_bits, game.hand_bits, strict=True)):
        if bits & ~hand:
            raise ValueError(f"cards known to be in seat {seat}'s hand must be in it")
    return known_bits


def _seat_the_players(
    game: Game,
    attacker: int,
    defender: int | None,
    finished: Iterable[Iterable[int]],
    passed: Iterable[int],
    round: int,
    finished_this_round: bool,
) -> None:
    seats = range(game.players)
    game.finished = [sorted(group) for group in finished]
    out = [seat for group in game.finished for seat in group]
    if len(set(out)) != len(out) or not set(out) <= set(seats) or not all(game.finished):
        raise ValueError(f"the finishing groups {game.finished!r} must name each seat once")
    if out and game.talon:
        raise ValueError("nobody finishes while the talon lasts (R13)")
    if finished_this_round and not out:
        raise ValueError("a group can finish this round only when somebody finished")
    if round < 1:
        raise ValueError(f"rounds are counted from 1, not {round!r}")
    game.round = round
    game.group_round = round if finished_this_round else 0
    game.in_game = [seat not in out for seat in seats]
    if attacker not in seats:
        raise ValueError(f"there is no seat {attacker!r} to lead in a game of {game.players}")
    game.attacker = attacker
    game.defender = game.next_seat(attacker) if defender is None else defender
    if game.defender not in seats:
        raise ValueError(
            f"there is no seat {game.defender!r} to defend in a game of {game.players}"
        )
    game.passed = set(passed)
    if not game.passed <= {seat for seat in seats if game.in_game[seat]} - {game.defender}:
        raise ValueError("only attackers still in the game pass (R10)")


def _lay_the_table(game: Game, pairs: list[tuple[Card, Card | None]], taken: bool) -> None:
    """The table, what may be thrown in, and the limit it is held to (R5, R7, R8, R9)."""
    game.throwable = 0
    for attack, defence in pairs:
        if defence is not None and not beats(defence, attack, game.trump):
            raise ValueError(f"{defence} does not beat {attack} (R5)")
        game.throwable |= RANK_BITS[attack.rank]
        if defence is not None:
            game.throwable |= RANK_BITS[defence.rank]
    game.unbeaten = game.defences.count(None)
    if not game.in_game[game.defender] and game.unbeaten:
        raise ValueError(f"seat {game.defender} cannot defend: it has finished (R13)")
    if taken and not game.unbeaten:
        raise ValueError("the defender takes only while a card on the table is unbeaten (R8)")
    game.taken = bool(taken)
    game.held = game.hand_bits[game.defender].bit_count() + len(pairs) - game.unbeaten
    game.limit = min(cap(game), game.held)
    if len(pairs) > game.limit:
        raise ValueError(f"the table holds {len(pairs)} attack cards, over the limit (R9)")
