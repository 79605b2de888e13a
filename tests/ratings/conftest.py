from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts import ledger
from accounts.models import User
from accounts.services import create_player
from games.models import Game, Table

Seat = User | str
"""A seat of a recorded game: a player, or a bot level."""


@pytest.fixture
def client() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def make_player(db: None) -> Callable[[str], User]:
    return lambda name: create_player(name, f"{name}-plays-durak")


def play_game(
    seats: Sequence[Seat],
    groups: Sequence[Sequence[int]],
    *,
    stake: int = 10,
    events: Sequence[dict[str, Any]] = (),
) -> Game:
    """A finished game as the writer records it: stakes in, the bank paid out by R14 to the
    finishing groups (the last group of one is the durak), places written."""
    game = _game(seats, stake)
    payouts = ledger.settle(game, groups)
    durak = groups[-1][0] if len(groups[-1]) == 1 and len(groups) > 1 else None
    place = 1
    for group in groups:
        for seat in group:
            game.players.filter(seat=seat).update(
                place=place, payout=payouts[seat], durak=seat == durak
            )
        place += len(group)
    for seq, event in enumerate(events, start=1):
        game.events.create(seq=seq, type=event["type"], seat=event.get("seat"), data=event)
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    game.save()
    return game


def stop_game(seats: Sequence[Seat], *, stake: int = 10) -> Game:
    """A game the staff stopped: every stake returned."""
    game = _game(seats, stake)
    ledger.refund(game)
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.save()
    return game


def _game(seats: Sequence[Seat], stake: int) -> Game:
    table = Table.objects.create(name="Test table", stake=stake, seats=len(seats))
    game = Game.objects.create(
        table=table, state={}, seed="1", seed_hash="h", stake=stake, bank=stake * len(seats)
    )
    for seat, who in enumerate(seats):
        if isinstance(who, User):
            game.players.create(seat=seat, player=who, stake=stake)
        else:
            game.players.create(seat=seat, bot_level=who, stake=stake)
    ledger.stake_all(game, [who if isinstance(who, User) else None for who in seats], stake)
    return game
