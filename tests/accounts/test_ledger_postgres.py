"""The ledger under real concurrency: many threads, each with its own PostgreSQL connection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

import pytest
from django.conf import LazySettings
from django.db import connection

from accounts import ledger
from accounts.models import Transfer, User
from tests.accounts.conftest import a_game

T = TypeVar("T")
MakePlayer = Callable[..., User]

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("ledger_audit"),
]


def all_at_once(calls: list[Callable[[], T]]) -> list[T | Exception]:
    """Runs each call on its own thread and connection, released together."""
    start = threading.Barrier(len(calls))

    def run(call: Callable[[], T]) -> T | Exception:
        try:
            start.wait()
            return call()
        except Exception as error:
            return error
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def test_fifty_concurrent_stakes_against_chips_for_ten_let_exactly_ten_through(
    make_player: MakePlayer,
) -> None:
    anna = make_player("anna", 100)
    games = [a_game() for _ in range(50)]
    results = all_at_once([partial(ledger.stake_all, game, [anna, None], 10) for game in games])
    refused = [result for result in results if isinstance(result, Exception)]
    short = [error for error in refused if isinstance(error, ledger.InsufficientChips)]
    assert len(short) == len(refused) == 40
    assert {error.player for error in short} == {anna}
    assert ledger.balance(anna) == 0
    assert Transfer.objects.filter(kind="stake", source__user=anna).count() == 10


def test_concurrent_settles_pay_once(make_player: MakePlayer) -> None:
    anna, boris = make_player("anna", 100), make_player("boris", 100)
    game = a_game()
    ledger.stake_all(game, [anna, None, boris], 50)
    results = all_at_once([lambda: ledger.settle(game, [[2], [0], [1]])] * 20)
    assert results == [[30, 0, 120]] * 20
    assert (ledger.balance(anna), ledger.balance(boris)) == (80, 170)
    assert Transfer.objects.filter(kind="payout").count() == 2


def test_concurrent_settles_and_refunds_close_the_bank_once(make_player: MakePlayer) -> None:
    anna = make_player("anna", 100)
    game = a_game()
    ledger.stake_all(game, [anna, None], 50)
    results = all_at_once(
        [lambda: ledger.settle(game, [[0], [1]]), lambda: ledger.refund(game)] * 10
    )
    outcomes = {
        type(result).__name__ if isinstance(result, Exception) else str(result)
        for result in results
    }
    assert outcomes in ({"[100, 0]", "LedgerError"}, {"[50, 50]", "LedgerError"})
    assert ledger.balance(anna) in (150, 100)
    assert ledger.bank(game.pk).balance == 0


def test_concurrent_welcome_grants_grant_once(settings: LazySettings) -> None:
    settings.WELCOME_GRANT = 100
    anna = User.objects.create_user("anna")
    grants = all_at_once([lambda: ledger.grant_welcome(anna)] * 20)
    granted = [grant for grant in grants if isinstance(grant, Transfer)]
    assert len(granted) == len(grants)
    assert {grant.pk for grant in granted} == {Transfer.objects.get().pk}
    assert ledger.balance(anna) == 100
