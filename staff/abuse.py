"""Signals for the staff's judgement, never automatic punishment: pairs of players with a
lopsided chip flow between them at stake tables (chip farming), players who run out of time
or go away often, and players who take almost every time they defend. Each signal carries the
figures behind it and the games to look at."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations

from accounts.models import User
from games.engine import LeadEvent, RoundEvent, TakeEvent, TransferEvent, event_types
from games.models import Game, GameEvent, GamePlayer

RECENT_GAMES = 2000
"""How many of the latest finished games the signals read."""
SHOWN_GAMES = 10

FARMING_MIN_GAMES = 5
FARMING_LOPSIDED = 0.8
"""The share of the chips moved between two players that went one way."""

TIMEOUTS_MIN_GAMES = 3
TIMEOUTS_PER_GAME = 1.0
AWAY_AFTER_TIMEOUTS = 2

TAKING_MIN_DEFENCES = 20
TAKING_RATE = 0.8

Read = RoundEvent | TransferEvent | LeadEvent | TakeEvent
"""The events the signals read: each defence begins with a round or a transfer, and a seat
runs out of time (R15) on a lead or a take."""
READ = event_types(Read)


@dataclass
class Pair:
    winner: User
    loser: User
    games: int = 0
    winner_ahead: int = 0
    loser_ahead: int = 0
    to_winner: int = 0
    to_loser: int = 0
    game_ids: list[int] = field(default_factory=list)

    @property
    def lopsided(self) -> float:
        moved = self.to_winner + self.to_loser
        return self.to_winner / moved if moved else 0.0

    @property
    def lopsided_percent(self) -> int:
        return round(self.lopsided * 100)

    @property
    def net(self) -> int:
        return self.to_winner - self.to_loser


@dataclass
class TimeOuts:
    player: User
    games: int = 0
    timeouts: int = 0
    away_games: int = 0
    game_ids: list[int] = field(default_factory=list)

    @property
    def per_game(self) -> float:
        return self.timeouts / self.games if self.games else 0.0


@dataclass
class Taker:
    player: User
    defences: int = 0
    takes: int = 0
    game_ids: list[int] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.takes / self.defences if self.defences else 0.0


@dataclass(frozen=True)
class Seated:
    """A person's seat in a finished game."""

    game_id: int
    seat: int
    player: User
    place: int
    net: int
    """Chips won (payout less stake), negative when lost."""
    staked: bool


@dataclass(frozen=True)
class Signals:
    games_read: int
    farming: list[Pair]
    timeouts: list[TimeOuts]
    takers: list[Taker]


def recent_games(limit: int = RECENT_GAMES) -> list[int]:
    finished = Game.objects.filter(status=Game.Status.FINISHED).order_by("-finished_at", "-pk")
    return list(finished.values_list("pk", flat=True)[:limit])


def people_by_game(game_ids: list[int]) -> dict[int, list[Seated]]:
    seated: dict[int, list[Seated]] = defaultdict(list)
    rows = GamePlayer.objects.filter(game__in=game_ids, player__isnull=False).select_related(
        "player", "game"
    )
    for row in rows.order_by("game", "seat"):
        if row.player is None:
            continue
        seated[row.game_id].append(
            Seated(
                game_id=row.game_id,
                seat=row.seat,
                player=row.player,
                place=row.place or 0,
                net=(row.payout or 0) - row.stake,
                staked=row.game.stake > 0,
            )
        )
    return seated


def farming(seated: dict[int, list[Seated]]) -> list[Pair]:
    """Pairs who met at stake tables at least FARMING_MIN_GAMES times, with the chips that
    moved between them (what one lost and the other won, game by game) mostly going one way."""
    pairs: dict[tuple[int, int], Pair] = {}
    for game_id in sorted(seated, reverse=True):
        people = seated[game_id]
        if not people or not people[0].staked:
            continue
        for first, second in combinations(people, 2):
            key = (first.player.pk, second.player.pk)
            pair = pairs.setdefault(key, Pair(first.player, second.player))
            pair.games += 1
            pair.winner_ahead += first.place < second.place
            pair.loser_ahead += second.place < first.place
            if first.net > 0 > second.net:
                pair.to_winner += min(first.net, -second.net)
            elif second.net > 0 > first.net:
                pair.to_loser += min(second.net, -first.net)
            if len(pair.game_ids) < SHOWN_GAMES:
                pair.game_ids.append(game_id)
    found = []
    for pair in pairs.values():
        if pair.to_loser > pair.to_winner:
            pair.winner, pair.loser = pair.loser, pair.winner
            pair.to_winner, pair.to_loser = pair.to_loser, pair.to_winner
            pair.winner_ahead, pair.loser_ahead = pair.loser_ahead, pair.winner_ahead
        if pair.games >= FARMING_MIN_GAMES and pair.lopsided >= FARMING_LOPSIDED:
            found.append(pair)
    return sorted(found, key=lambda pair: (-pair.net, -pair.games))


def timeouts_and_takes(
    seated: dict[int, list[Seated]],
) -> tuple[list[TimeOuts], list[Taker]]:
    """Run-outs of time (R15) and takes per player, read from the games' events."""
    by_seat = {(game_id, row.seat): row.player for game_id, rows in seated.items() for row in rows}
    clocks: dict[int, TimeOuts] = {}
    takers: dict[int, Taker] = {}
    for rows in seated.values():
        for row in rows:
            clocks.setdefault(row.player.pk, TimeOuts(row.player)).games += 1
    per_game: dict[tuple[int, int], int] = defaultdict(int)
    events = GameEvent.objects.filter(game__in=list(seated), type__in=READ).order_by("game", "seq")
    for game_id, seat, data in events.values_list("game_id", "seat", "data"):
        event: Read = data
        defender = new_defender(event)
        if defender is not None and (game_id, defender) in by_seat:
            player = by_seat[(game_id, defender)]
            taker = takers.setdefault(player.pk, Taker(player))
            taker.defences += 1
            if game_id not in taker.game_ids and len(taker.game_ids) < SHOWN_GAMES:
                taker.game_ids.append(game_id)
        if seat is None or (game_id, seat) not in by_seat:
            continue
        player = by_seat[(game_id, seat)]
        if event.get("auto"):
            per_game[(game_id, player.pk)] += 1
        elif event["type"] == "take" and not event.get("by"):
            takers.setdefault(player.pk, Taker(player)).takes += 1
    for (game_id, player_id), count in sorted(per_game.items(), reverse=True):
        record = clocks[player_id]
        record.timeouts += count
        record.away_games += count >= AWAY_AFTER_TIMEOUTS
        if len(record.game_ids) < SHOWN_GAMES:
            record.game_ids.append(game_id)
    slow = [
        record
        for record in clocks.values()
        if record.games >= TIMEOUTS_MIN_GAMES and record.per_game >= TIMEOUTS_PER_GAME
    ]
    always = [
        taker
        for taker in takers.values()
        if taker.defences >= TAKING_MIN_DEFENCES and taker.rate >= TAKING_RATE
    ]
    return (
        sorted(slow, key=lambda record: -record.per_game),
        sorted(always, key=lambda taker: -taker.rate),
    )


def new_defender(event: Read) -> int | None:
    """The seat that defends from this event on: a round's defender, or a transfer's."""
    if event["type"] == "round":
        return event["defender"]
    if event["type"] == "transfer":
        return event["to"]
    return None


def signals(limit: int = RECENT_GAMES) -> Signals:
    game_ids = recent_games(limit)
    seated = people_by_game(game_ids)
    slow, always = timeouts_and_takes(seated)
    return Signals(games_read=len(game_ids), farming=farming(seated), timeouts=slow, takers=always)
