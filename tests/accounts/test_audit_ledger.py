from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts import ledger
from accounts.models import Account, User
from games.models import Game

MakePlayer = Callable[..., User]


def audit_output() -> str:
    out = StringIO()
    call_command("audit_ledger", stdout=out)
    return out.getvalue()


def audit_failure() -> str:
    with pytest.raises(CommandError) as failure:
        call_command("audit_ledger", stdout=StringIO())
    return str(failure.value)


def test_a_clean_ledger_passes_with_a_summary(
    make_player: MakePlayer, make_game: Callable[[], Game]
) -> None:
    anna = make_player("anna", 100)
    ledger.stake_all(make_game(), [anna, None], 30)
    assert audit_output() == (
        "3 accounts, 3 transfers: 70 chips in wallets, 60 in banks, house -130.\n"
        "Ledger audit passed.\n"
    )


def test_an_empty_ledger_passes(db: None) -> None:
    assert "Ledger audit passed." in audit_output()


def test_a_cached_balance_that_differs_from_its_transfers_fails(make_player: MakePlayer) -> None:
    make_player("anna", 100)
    Account.objects.filter(kind="wallet").update(balance=90)
    problems = audit_failure()
    assert "Wallet of anna caches 90 chips, its transfers add up to 100" in problems
    assert "All balances add up to -10, not zero" in problems


def test_a_closed_bank_holding_chips_fails(
    make_player: MakePlayer, make_game: Callable[[], Game]
) -> None:
    anna = make_player("anna", 100)
    game = make_game()
    ledger.stake_all(game, [anna, None], 30)
    Account.objects.filter(kind="bank").update(closed=True)
    assert f"Bank of game #{game.pk} is closed but holds 60 chips" in audit_failure()
