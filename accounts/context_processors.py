from __future__ import annotations

from functools import partial
from typing import Any

from django.http import HttpRequest

from accounts import ledger


def balance(request: HttpRequest) -> dict[str, Any]:
    """`chip_balance` for the page header: looked up only if the page shows it, None for an
    account without a wallet."""
    if not request.user.is_authenticated:
        return {}
    return {"chip_balance": partial(ledger.wallet_balance, request.user)}
