"""The state of one game and the rules that change it (R2–R13, R15).

Every action is checked completely before anything changes, so a refused action leaves the
game exactly as it was. Time is passed in by the caller; the game never reads a clock.

Events are the full truth, hidden cards included (who drew what): they are for the server's
log and replays and must never reach a client as they are; ``public_event`` gives what everyone
may see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .actions import (
    DEFENDS,
    LEADS,
    PASS,
    TAKE,
    THROW_INS,
    TRANSFERS,
    Action,
    Defend,
    IllegalAction,
    Lead,
    Pass,
    Take,
    ThrowIn,
    Transfer,
)
from .cards import (
    BEATERS,
    CARDS,
    RANK_BITS,
    SUIT_BITS,
    SUIT_SYMBOLS,
    Card,
    bits_of,
    cards_in,
    codes,
    labels,
    pick,
)
from .deal import HAND_SIZE, Deal
from .events import Event
from .limits import cap, nobody_will_throw_in
from .phase import Phase
from .position import from_position
from .reasons import Reason, gettext_noop
from .rules import DEFAULT_RULES, Rules
from .seats import CLOCKWISE, next_seat
from .store import from_dict, to_dict
from .view import View, view

# ``Phase.LEAD`` looks the member up through the enum's metaclass each time (Python 3.11): read
# several times an action, in the bots' searches too, that makes the engine a sixth slower.
LEAD = Phase.LEAD
DEFEND = Phase.DEFEND
CLOSING = Phase.CLOSING
OVER = Phase.OVER

NO_CARD = 1 << len(CARDS)
"""Above every card's bit."""


class Game:
    """One game of Perevodnoy Durak. Read the attributes; change it only through ``apply`` and
    ``tick``."""

    __slots__ = (
        "rules",
        "players",
        "trump",
        "trump_card",
        "seed",
        "hand_bits",
        "known_bits",
        "talon",
        "discarded",
        "set_aside",
        "attacks",
        "defences",
        "throwable",
        "unbeaten",
        "attacker",
        "defender",
        "held",
        "phase",
        "taken",
        "limit",
        "passed",
        "round",
        "finished",
        "group_round",
        "durak",
        "in_game",
        "move_end",
        "window_end",
        "close_at",
    )

    rules: Rules
    players: int
    trump: str
    trump_card: Card | None
    seed: int | None
    hand_bits: list[int]
    """Each seat's hand as a set of card bits (see ``cards.cards_in``); ``hands`` lists it."""
    known_bits: list[int]
    """Cards everyone knows to be in each hand: picked up from the table, or the trump card."""
    talon: list[Card]
    discarded: list[Card]
    """Cards that went from the table to the discard pile, in that order."""
    set_aside: int
    """Cards a partial deal left out: they count as discarded but nobody saw them."""
    attacks: list[Card]
    defences: list[Card | None]
    """``defences[i]`` beats ``attacks[i]``, or is None while it is unbeaten."""
    throwable: int
    """Every card of a rank on the table, as bits: what may be thrown in (R7)."""
    unbeaten: int
    attacker: int
    """The seat that led this round (R4), even when transfers bring the attack back to it."""
    defender: int
    held: int
    """The defender's hand size when they became defender (R9)."""
    phase: Phase
    taken: bool
    limit: int
    passed: set[int]
    round: int
    finished: list[list[int]]
    group_round: int
    """The round of the last finishing group (R13): a seat finishing in it joins that group."""
    durak: int | None
    in_game: list[bool]
    move_end: float | None
    """R15: when the attacker who must lead, or the defender, runs out of time."""
    window_end: float | None
    """R10: the end of the 8 s closing window."""
    close_at: float | None
    """R10: 1 s after every attacker who could throw in passed, or nobody could."""

    # ------------------------------------------------------------------ starting

    @classmethod
    def start(
        cls,
        deal: Deal,
        rules: Rules = DEFAULT_RULES,
        now: float = 0.0,
        attacker: int | None = None,
    ) -> Game:
        """A game at its first round. The first attacker follows R3 unless ``attacker`` is
        given."""
        game = cls.__new__(cls)
        players = len(deal.hands)
        game.rules = rules
        game.players = players
        game.trump = deal.trump
        game.trump_card = deal.trump_card
        game.seed = deal.seed
        game.hand_bits = [bits_of(hand) for hand in deal.hands]
        game.talon = list(deal.talon)
        dealt = {card for hand in deal.hands for card in hand}.union(deal.talon)
        game.discarded = []
        game.set_aside = len(CARDS) - len(dealt)
        game.known_bits = [0] * players
        if not game.talon and game.trump_card is not None:
            shown = game.trump_card.bit
            game.known_bits = [bits & shown for bits in game.hand_bits]
        game.attacks, game.defences, game.throwable, game.unbeaten = [], [], 0, 0
        game.passed, game.taken, game.round = set(), False, 1
        game.finished, game.group_round, game.durak = [], 0, None
        game.in_game = [True] * players
        game.move_end = game.window_end = game.close_at = None
        holding = [seat for seat in range(players) if game.hand_bits[seat]]
        if attacker is not None and not 0 <= attacker < players:
            raise ValueError(f"there is no seat {attacker!r} to lead in a game of {players}")
        if len(holding) < 2:
            game._start_over(holding, now)
            return game
        if not game.talon:
            for seat in range(players):
                if not game.hand_bits[seat]:
                    game._finish(seat, now, [])
        if attacker is None:
            attacker = game._first_attacker()
        elif not game.hand_bits[attacker]:
            attacker = next(s for s in CLOCKWISE[players][attacker] if game.hand_bits[s])
        game._begin_round(attacker, now, [])
        if not game.held:
            raise ValueError(
                f"seat {game.defender} cannot defend the first round: it holds no cards while "
                "the talon lasts"
            )
        return game

    def _start_over(self, holding: list[int], now: float) -> None:
        """A deal in which fewer than two seats hold cards: the seats without cards have finished
        together, and the one holding cards, if any, is the durak (R13)."""
        self.attacker = self.defender = holding[0] if holding else 0
        self.held = self.limit = 0
        self.phase = OVER
        empty = [seat for seat in range(self.players) if seat not in holding]
        for seat in empty:
            self._finish(seat, now, [])
        self.durak = holding[0] if holding else None

    from_position = classmethod(from_position)

    def _first_attacker(self) -> int:
        """R3: the lowest trump leads; without trumps the lowest card, ties by suit."""
        trumps = [bits & SUIT_BITS[self.trump] for bits in self.hand_bits]
        candidates = trumps if any(trumps) else self.hand_bits
        lowest = [bits & -bits or NO_CARD for bits in candidates]
        return lowest.index(min(lowest))

    # ------------------------------------------------------------------ reading

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards, lowest first."""
        return [cards_in(bits) for bits in self.hand_bits]

    @property
    def known(self) -> list[set[Card]]:
        """The cards everyone knows to be in each seat's hand."""
        return [set(cards_in(bits)) for bits in self.known_bits]

    @property
    def discard(self) -> int:
        return self.set_aside + len(self.discarded)

    @property
    def table(self) -> list[tuple[Card, Card | None]]:
        """``(attack, defence_or_None)`` pairs in the order played."""
        return list(zip(self.attacks, self.defences, strict=True))

    @property
    def deadline(self) -> float | None:
        """The earliest time at which ``tick`` will change something."""
        if self.phase == CLOSING:
            window, close = self.window_end, self.close_at
            if close is not None and (window is None or close < window):
                return close
            return window
        return self.move_end

    def next_seat(self, seat: int) -> int:
        """R2: the next seat clockwise that is still in the game (``seat`` itself if alone)."""
        return next_seat(seat, self.in_game)

    def standings(self) -> list[list[int]]:
        """The finishing groups covering every seat, as ``split_bank`` takes them (R14): the
        groups so far, then the durak alone. A game stopped before its end counts as a draw of
        the seats still holding cards: they make one last group."""
        groups = [list(group) for group in self.finished]
        if self.durak is not None:
            groups.append([self.durak])
        elif self.phase != OVER:
            groups.append([seat for seat in range(self.players) if self.in_game[seat]])
        return groups

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, as the shared instances of ``actions``; a lead
        of several cards is not listed."""
        phase = self.phase
        if phase == LEAD:
            return pick(LEADS, self.hand_bits[seat]) if seat == self.attacker else []
        if phase == OVER or not 0 <= seat < self.players or not self.in_game[seat]:
            return []
        if seat == self.defender:
            return self._defender_actions(seat) if phase == DEFEND else []
        actions: list[Action] = []
        throwable = self.hand_bits[seat] & self.throwable
        if throwable and len(self.attacks) < self.limit:
            actions = pick(THROW_INS, throwable)
        if seat not in self.passed:
            actions.append(PASS)
        return actions

    def _defender_actions(self, seat: int) -> list[Action]:
        hand = self.hand_bits[seat]
        beaters = BEATERS[self.trump]
        actions: list[Action] = []
        for index, defence in enumerate(self.defences):
            if defence is None:
                target = self.attacks[index]
                pick(DEFENDS[target], hand & beaters[target], actions)
        if self.unbeaten == len(self.attacks):
            same_rank = hand & RANK_BITS[self.attacks[0].rank]
            if same_rank and self._transfer_refusal() is None:
                actions += pick(TRANSFERS, same_rank)
        actions.append(TAKE)
        return actions

    # ------------------------------------------------------------------ checking

    def _seat_refusal(self, seat: int) -> Reason | None:
        """Why ``seat`` may not act at all now."""
        if self.phase == OVER:
            return Reason(gettext_noop("The game is over (R13)"))
        if not (isinstance(seat, int) and 0 <= seat < self.players):
            return Reason(gettext_noop("There is no seat {seat} at this table"), seat=repr(seat))
        if not self.in_game[seat]:
            return Reason(gettext_noop("You have finished and left the game (R13)"))
        return None

    def _lead_refusal(self, seat: int, action: Lead) -> Reason | None:
        cards = action.cards
        if self.phase != LEAD:
            return Reason(gettext_noop("The round's lead is already on the table (R4)"))
        if seat != self.attacker:
            return Reason(gettext_noop("It is not your turn to lead (R4)"))
        if not cards:
            return Reason(gettext_noop("Lead at least one card (R4)"))
        if len(set(cards)) != len(cards):
            return Reason(gettext_noop("Each card can be led only once (R4)"))
        missing = [card for card in cards if not self.hand_bits[seat] & card.bit]
        if missing:
            return Reason(gettext_noop("You do not hold {cards}"), cards=labels(missing))
        if len({card.rank for card in cards}) > 1:
            return Reason(
                gettext_noop("Several cards can be led together only when they share one rank (R4)")
            )
        if len(cards) > self.limit:
            return Reason(
                gettext_noop("At most {limit} cards can be led this round: that is the limit (R9)"),
                limit=self.limit,
            )
        return None

    def _throw_in_refusal(self, seat: int, action: ThrowIn) -> Reason | None:
        card = action.card
        if self.phase == LEAD:
            return Reason(
                gettext_noop("Nothing can be thrown in before the lead is on the table (R7)")
            )
        if seat == self.defender:
            return Reason(gettext_noop("The defender cannot throw in (R7)"))
        if not self.hand_bits[seat] & card.bit:
            return Reason(gettext_noop("You do not hold {cards}"), cards=card.label)
        if not self.throwable & card.bit:
            return Reason(
                gettext_noop("Only a rank already on the table can be thrown in, not {card} (R7)"),
                card=card.label,
            )
        if len(self.attacks) >= self.limit:
            return Reason(
                gettext_noop("The limit of {limit} attack cards this round is reached (R9)"),
                limit=self.limit,
            )
        return None

    def _defender_refusal(self) -> Reason | None:
        """Why the defender may neither beat, transfer nor take now."""
        if self.taken:
            return Reason(
                gettext_noop("You have taken: you can no longer beat or transfer this round (R8)")
            )
        if self.phase != DEFEND:
            return Reason(gettext_noop("Every card on the table is beaten (R5)"))
        return None

    def _defend_refusal(self, seat: int, action: Defend) -> Reason | None:
        card, target = action.card, action.target
        if seat != self.defender:
            return Reason(gettext_noop("Only the defender beats cards (R5)"))
        refusal = self._defender_refusal()
        if refusal:
            return refusal
        if target not in self.attacks or self.defences[self.attacks.index(target)] is not None:
            return Reason(
                gettext_noop("{target} is not an unbeaten attack card on the table (R5)"),
                target=target.label,
            )
        if not self.hand_bits[seat] & card.bit:
            return Reason(gettext_noop("You do not hold {cards}"), cards=card.label)
        if not BEATERS[self.trump][target] & card.bit:
            if target.suit == self.trump:
                return Reason(
                    gettext_noop("{card} does not beat {target}: only a higher trump does (R5)"),
                    card=card.label,
                    target=target.label,
                )
            return Reason(
                gettext_noop(
                    "{card} does not beat {target}: beat it with a higher {suit} or a trump (R5)"
                ),
                card=card.label,
                target=target.label,
                suit=SUIT_SYMBOLS[target.suit],
            )
        return None

    def _transfer_action_refusal(self, seat: int, action: Transfer) -> Reason | None:
        if seat != self.defender:
            return Reason(gettext_noop("Only the defender can transfer (R6)"))
        return self._defender_refusal() or self._transfer_refusal(action.card)

    def _take_refusal(self, seat: int, action: Take) -> Reason | None:
        if seat != self.defender:
            return Reason(gettext_noop("Only the defender can take (R8)"))
        if self.phase == CLOSING and not self.taken:
            return Reason(
                gettext_noop("Every card on the table is beaten: there is nothing to take (R8)")
            )
        return self._defender_refusal()

    def _transfer_refusal(self, card: Card | None = None) -> Reason | None:
        """Why the defender may not transfer (with ``card``, when given) now (R6)."""
        if self.unbeaten != len(self.attacks):
            return Reason(
                gettext_noop("Transfer is no longer possible: a card has already been beaten (R6)")
            )
        # With nothing beaten every attack card has the lead's rank: throw-ins and transfers
        # can only match it.
        rank = self.attacks[0].rank
        if card is not None:
            if card.rank != rank:
                return Reason(
                    gettext_noop("Transfer needs a card of the attack's rank, {card} is not (R6)"),
                    card=card.label,
                )
            if not self.hand_bits[self.defender] & card.bit:
                return Reason(gettext_noop("You do not hold {cards}"), cards=card.label)
        target = self.next_seat(self.defender)
        if target == self.defender:
            return Reason(gettext_noop("Nobody is left to transfer to (R6)"))
        allowed = min(cap(self), self.hand_bits[target].bit_count())
        if len(self.attacks) + 1 > allowed:
            return Reason(
                gettext_noop(
                    "Transfer is not possible: the next player would face {count} cards "
                    "but can take on at most {allowed} (R6, R9)"
                ),
                count=len(self.attacks) + 1,
                allowed=allowed,
            )
        return None

    def _pass_refusal(self, seat: int, action: Pass) -> Reason | None:
        if self.phase == LEAD:
            return Reason(
                gettext_noop("There is nothing to pass on before the lead is on the table (R10)")
            )
        if seat == self.defender:
            return Reason(gettext_noop("The defender cannot pass: beat, transfer or take (R10)"))
        if seat in self.passed:
            return Reason(gettext_noop("You have already passed (R10)"))
        return None

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: Action, now: float) -> list[Event]:
        """Apply every deadline due by ``now``, then ``action`` if it is legal, and return the
        events. An illegal action raises ``IllegalAction`` and changes nothing (the deadlines
        excepted: their events ride on the exception)."""
        deadline = self.deadline
        events = self.tick(now) if deadline is not None and deadline <= now else []
        rule = _RULES.get(type(action))
        if rule is None:
            raise IllegalAction(f"{action!r} is not an action of this game", events)
        refusal, act = rule
        reason = self._seat_refusal(seat) or refusal(self, seat, action)
        if reason is not None:
            raise IllegalAction(reason, events)
        act(self, seat, action, now, events)
        return events

    def tick(self, now: float) -> list[Event]:
        """Apply, in time order, every deadline that has passed by ``now``."""
        events: list[Event] = []
        deadline = self.deadline
        while deadline is not None and deadline <= now:
            if self.phase == LEAD:
                hand = self.hand_bits[self.attacker]
                candidates = hand & ~SUIT_BITS[self.trump] or hand
                lowest = candidates & -candidates
                self._lead(self.attacker, LEADS[lowest], deadline, events, auto=True)
            elif self.phase == DEFEND:
                self._take(self.defender, TAKE, deadline, events, auto=True)
            else:
                self._close_round(deadline, events)
            deadline = self.deadline
        return events

    def _play(self, seat: int, card: Card, at: float, events: list[Event]) -> None:
        """``card`` leaves ``seat``'s hand for the table."""
        hand = self.hand_bits[seat] & ~card.bit
        self.hand_bits[seat] = hand
        self.known_bits[seat] &= ~card.bit
        if not hand and not self.talon:
            self._finish(seat, at, events)

    def _lead(
        self, seat: int, action: Lead, at: float, events: list[Event], auto: bool = False
    ) -> None:
        cards = action.cards
        events.append(
            {
                "type": "lead",
                "at": at,
                "seat": seat,
                "cards": codes(cards),
                "defender": self.defender,
                "auto": auto,
            }
        )
        for card in cards:
            self._add_attack(card)
            self._play(seat, card, at, events)
        self.phase = DEFEND
        self.move_end = at + self.rules.move_time

    def _add_attack(self, card: Card) -> None:
        self.attacks.append(card)
        self.defences.append(None)
        self.throwable |= RANK_BITS[card.rank]
        self.unbeaten += 1

    def _throw_in(self, seat: int, action: ThrowIn, at: float, events: list[Event]) -> None:
        card = action.card
        events.append({"type": "throw_in", "at": at, "seat": seat, "card": card.code})
        self._add_attack(card)
        self.passed.discard(seat)
        self._play(seat, card, at, events)
        if self.taken:
            self.window_end = at + self.rules.throw_in_window
            self.close_at = at + self.rules.close_delay if nobody_will_throw_in(self) else None
        else:
            self.phase = DEFEND
            self.window_end = self.close_at = None
            self.move_end = at + self.rules.move_time

    def _defend(self, seat: int, action: Defend, at: float, events: list[Event]) -> None:
        card, target = action.card, action.target
        events.append(
            {"type": "defend", "at": at, "seat": seat, "card": card.code, "target": target.code}
        )
        self.defences[self.attacks.index(target)] = card
        self.unbeaten -= 1
        if not self.throwable & card.bit:
            self.throwable |= RANK_BITS[card.rank]
            self.passed.clear()
        self._play(seat, card, at, events)
        if self.unbeaten:
            self.move_end = at + self.rules.move_time
        else:
            self._start_closing(at)

    def _transfer(self, seat: int, action: Transfer, at: float, events: list[Event]) -> None:
        card = action.card
        target = self.next_seat(seat)
        events.append({"type": "transfer", "at": at, "seat": seat, "card": card.code, "to": target})
        self._add_attack(card)
        self._play(seat, card, at, events)
        self.defender = target
        self.held = self.hand_bits[target].bit_count()
        self.limit = min(cap(self), self.held)
        self.passed.clear()
        self.move_end = at + self.rules.move_time

    def _take(
        self, seat: int, action: Take, at: float, events: list[Event], auto: bool = False
    ) -> None:
        events.append({"type": "take", "at": at, "seat": seat, "auto": auto})
        self.taken = True
        self.passed.clear()
        self.limit = min(cap(self), self.held)
        self._start_closing(at)

    def _pass(self, seat: int, action: Pass, at: float, events: list[Event]) -> None:
        events.append({"type": "pass", "at": at, "seat": seat})
        self.passed.add(seat)
        if self.phase == CLOSING and self.close_at is None and nobody_will_throw_in(self):
            self.close_at = at + self.rules.close_delay

    def _start_closing(self, at: float) -> None:
        self.phase = CLOSING
        self.move_end = None
        self.window_end = at + self.rules.throw_in_window
        self.close_at = at + self.rules.close_delay if nobody_will_throw_in(self) else None

    def _finish(self, seat: int, at: float, events: list[Event]) -> None:
        """R13: a seat without cards once the talon is empty leaves the game."""
        self.in_game[seat] = False
        self.passed.discard(seat)
        if self.finished and self.group_round == self.round:
            self.finished[-1] = sorted([*self.finished[-1], seat])
        else:
            self.finished.append([seat])
            self.group_round = self.round
        events.append({"type": "finish", "at": at, "seat": seat, "place": self._place(seat)})

    def _place(self, seat: int) -> int:
        """The first place of ``seat``'s finishing group (1 for the first to finish)."""
        return 1 + sum(len(group) for group in self.finished if seat not in group)

    # ------------------------------------------------------------------ ending a round

    def _close_round(self, at: float, events: list[Event]) -> None:
        defender = self.defender
        table = self.attacks + [card for card in self.defences if card is not None]
        if self.taken:
            self.hand_bits[defender] |= bits_of(table)
            self.known_bits[defender] |= bits_of(table)
            events.append({"type": "pick_up", "at": at, "seat": defender, "cards": codes(table)})
        else:
            self.discarded += table
            events.append({"type": "discard", "at": at, "cards": codes(table)})
        self.attacks, self.defences, self.throwable, self.unbeaten = [], [], 0, 0
        self._draw(at, events)
        if self.taken or not self.in_game[defender]:
            attacker = self.next_seat(defender)
        else:
            attacker = defender
        remaining = [seat for seat in range(self.players) if self.in_game[seat]]
        if len(remaining) <= 1:
            self.phase = OVER
            self.taken = False
            self.held = self.limit = 0
            self.durak = remaining[0] if remaining else None
            self.move_end = self.window_end = self.close_at = None
            self.passed = set()
            events.append(
                {
                    "type": "over",
                    "at": at,
                    "durak": self.durak,
                    "finished": [list(group) for group in self.finished],
                }
            )
            return
        self.round += 1
        self._begin_round(attacker, at, events)

    def _draw(self, at: float, events: list[Event]) -> None:
        """R12: from the one who led clockwise, the final defender last."""
        defender = self.defender
        order = [self.attacker, *CLOCKWISE[self.players][self.attacker]]
        order.remove(defender)
        order.append(defender)
        talon = self.talon
        for seat in order:
            count = min(HAND_SIZE - self.hand_bits[seat].bit_count(), len(talon))
            if count <= 0 or not self.in_game[seat]:
                continue
            drawn = talon[:count]
            del talon[:count]
            self.hand_bits[seat] |= bits_of(drawn)
            shown = [] if talon or self.trump_card not in drawn else [self.trump_card.code]
            if shown:
                self.known_bits[seat] |= drawn[-1].bit
            events.append(
                {
                    "type": "draw",
                    "at": at,
                    "seat": seat,
                    "count": count,
                    "cards": codes(drawn),
                    "shown": shown,
                }
            )
        if not talon:
            for seat in order:
                if self.in_game[seat] and not self.hand_bits[seat]:
                    self._finish(seat, at, events)

    def _begin_round(self, attacker: int, at: float, events: list[Event]) -> None:
        self.attacker = attacker
        self.defender = self.next_seat(attacker)
        self.held = self.hand_bits[self.defender].bit_count()
        self.phase = LEAD
        self.taken = False
        self.passed = set()
        self.limit = min(cap(self), self.held)
        self.move_end = at + self.rules.move_time
        self.window_end = self.close_at = None
        events.append(
            {
                "type": "round",
                "at": at,
                "round": self.round,
                "attacker": attacker,
                "defender": self.defender,
                "limit": self.limit,
            }
        )

    # ------------------------------------------------------------------ outside views

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator), ready for JSON."""
        return view(self, seat)

    def to_dict(self) -> dict[str, Any]:
        """The whole state, compact and JSON-safe."""
        return to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        return from_dict(cls, data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Game round {self.round}, {self.phase}, seat {self.attacker} led>"


Refusal = Callable[[Game, int, Any], str | None]
Act = Callable[[Game, int, Any, float, list[Event]], None]

_RULES: dict[type, tuple[Refusal, Act]] = {
    Lead: (Game._lead_refusal, Game._lead),
    ThrowIn: (Game._throw_in_refusal, Game._throw_in),
    Defend: (Game._defend_refusal, Game._defend),
    Transfer: (Game._transfer_action_refusal, Game._transfer),
    Take: (Game._take_refusal, Game._take),
    Pass: (Game._pass_refusal, Game._pass),
}
"""For each kind of action: why it is refused now (None when it is allowed), and what it does."""
