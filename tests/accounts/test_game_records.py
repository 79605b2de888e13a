"""What the accounts app reads from recorded games: the banks of finished games."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounts import ledger
from accounts.models import User
from games.models import Game, Table

MakePlayer = Callable[..., User]


def record_game(results: list[tuple[User | None, int, int, bool]], finished: bool = True) -> Game:
    """A game row with one GamePlayer per (player, place, payout, durak), staking 10 each."""
    table = Table.objects.create(name="Test table", stake=10)
    game = Game.objects.create(
        table=table,
        state={},
        seed="seed",
        seed_hash="hash",
        stake=10,
        finished_at=timezone.now() if finished else None,
    )
    for seat, (player, place, payout, durak) in enumerate(results):
        game.players.create(
            seat=seat, player=player, stake=10, place=place, payout=payout, durak=durak
        )
    return game


def test_a_finished_games_bank_holding_chips_fails_the_audit(make_player: MakePlayer) -> None:
    anna = make_player("anna")
    game = record_game([(anna, 1, 0, False), (None, 2, 0, True)])
    ledger.stake_all(game, [anna, None], 10)
    with pytest.raises(CommandError, match=f"Bank of game #{game.pk} belongs to a finished game"):
        call_command("audit_ledger", stdout=StringIO())


def test_a_running_games_bank_may_hold_chips(make_player: MakePlayer) -> None:
    anna = make_player("anna")
    game = record_game([(anna, 1, 0, False), (None, 2, 0, True)], finished=False)
    ledger.stake_all(game, [anna, None], 10)
    assert ledger.audit().problems == []
