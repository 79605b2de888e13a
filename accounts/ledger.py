"""The chip ledger: every chip that moves is a transfer between two accounts.

Cached balances change only here, in the transaction that records the transfer, with
the accounts involved locked in id order. Every transfer has a unique key, so an
operation run twice records nothing the second time.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from django.conf import settings
from django.db import transaction
from django.db.models import BigIntegerField, Case, F, Q, QuerySet, Sum, When
from django.utils.translation import gettext as _

from accounts.models import Account, Transfer, User
from games.engine import split_bank

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class Change(TypedDict):
    """What `history` adds to each transfer: chips into (+) or out of (-) the wallet."""

    change: Any


class LedgerError(Exception):
    """A movement of chips the ledger refuses. Nothing was changed."""


class InsufficientChips(LedgerError):
    def __init__(self, player: User, balance: int, amount: int) -> None:
        super().__init__(
            _("%(player)s has %(balance)s chips but %(amount)s are needed.")
            % {"player": player.username, "balance": balance, "amount": amount}
        )
        self.player = player


class GameLike(Protocol):
    @property
    def pk(self) -> int: ...


@dataclass(frozen=True)
class _Move:
    source: Account
    destination: Account
    amount: int
    kind: str
    reason: str
    key: str
    game_id: int | None = None
    seat: int | None = None
    by: User | None = None


@dataclass(frozen=True)
class Audit:
    accounts: int
    transfers: int
    in_wallets: int
    in_banks: int
    house: int
    problems: list[str]


def house_account() -> Account:
    return Account.objects.get_or_create(kind=Account.Kind.HOUSE)[0]


def wallet(user: User) -> Account:
    return Account.objects.get_or_create(kind=Account.Kind.WALLET, user=user)[0]


def bank(game_id: int) -> Account:
    return Account.objects.get_or_create(kind=Account.Kind.BANK, game_id=game_id)[0]


def balance(user: User) -> int:
    return wallet_balance(user) or 0


def wallet_balance(user: User) -> int | None:
    """The chips in the player's wallet; None for an account that has no wallet (staff)."""
    own = Account.objects.filter(kind=Account.Kind.WALLET, user=user)
    return own.values_list("balance", flat=True).first()


def history(user: User) -> QuerySet[WithAnnotations[Transfer, Change]]:
    """The transfers in and out of a player's wallet, newest first, each with its `change`."""
    return (
        Transfer.objects.filter(Q(source__user=user) | Q(destination__user=user))
        .annotate(
            change=Case(
                When(destination__user=user, then=F("amount")),
                default=-F("amount"),
                output_field=BigIntegerField(),
            )
        )
        .order_by("-created_at", "-id")
    )


@transaction.atomic
def grant_welcome(user: User) -> Transfer | None:
    amount = settings.WELCOME_GRANT
    if amount <= 0:
        return None
    grant = _Move(
        house_account(),
        wallet(user),
        amount,
        Transfer.Kind.GRANT,
        "Welcome grant",
        key=f"welcome:{user.pk}",
    )
    return _post(grant)


@transaction.atomic
def adjust(
    user: User, amount: int, reason: str, by: User | None = None, key: str | None = None
) -> Transfer:
    """Adds (or with a negative amount takes) chips to a wallet, against the house."""
    if not _is_whole(amount) or amount == 0:
        raise LedgerError(_("An adjustment is a whole number of chips other than zero."))
    if not isinstance(reason, str) or not reason.strip():
        raise LedgerError(_("An adjustment needs a reason."))
    house, own = house_account(), wallet(user)
    source, destination = (house, own) if amount > 0 else (own, house)
    return _post(
        _Move(
            source,
            destination,
            abs(amount),
            Transfer.Kind.ADJUSTMENT,
            reason.strip(),
            key=key or f"adjustment:{uuid.uuid4().hex}",
            by=by,
        )
    )


@transaction.atomic
def stake_all(game: GameLike, players: Sequence[User | None], stake: int) -> None:
    """Moves every seat's stake into the game's bank: all seats or none.

    `players` is indexed by seat; `None` is a bot, whose stake comes from the house.
    """
    if not _is_whole(stake) or stake < 0:
        raise LedgerError(_("A stake is a whole number of chips, zero or more."))
    if stake == 0:
        return
    if not players:
        raise LedgerError(_("Game #%(game)s has no seats to stake.") % {"game": game.pk})
    pot, house = bank(game.pk), house_account()
    moves = [
        _Move(
            house if player is None else wallet(player),
            pot,
            stake,
            Transfer.Kind.STAKE,
            f"Stake for game #{game.pk}",
            key=f"stake:{game.pk}:{seat}",
            game_id=game.pk,
            seat=seat,
        )
        for seat, player in enumerate(players)
    ]
    locked = _lock(_accounts_of(moves))
    if not Transfer.objects.filter(key__in=[move.key for move in moves]).exists():
        _write(locked, moves)


@transaction.atomic
def settle(game: GameLike, groups: Sequence[Sequence[int]]) -> list[int]:
    """Pays the game's bank out by finishing groups (R14), once. Returns the payout per seat."""
    seats = [seat for group in groups for seat in group]
    if not seats or sorted(seats) != list(range(len(seats))):
        raise LedgerError(
            _("The finishing groups must name every seat exactly once, not %(groups)s.")
            % {"groups": [list(group) for group in groups]}
        )
    opened = _open_bank(game.pk)
    if opened is None:
        return [0] * len(seats)
    pot, stakes, locked = opened
    if sorted(stakes) != list(range(len(seats))):
        raise LedgerError(
            _("Game #%(game)s has stakes for seats %(staked)s, not for %(seats)s seats.")
            % {"game": game.pk, "staked": sorted(stakes), "seats": len(seats)}
        )
    if pot.closed:
        return _paid_out(pot, Transfer.Kind.PAYOUT, len(seats))
    shares = split_bank(pot.balance, [list(group) for group in groups], len(seats))
    payees = {
        seat: house_account() if _held(stake) else stake.source for seat, stake in stakes.items()
    }
    _empty(pot, payees, shares, locked, Transfer.Kind.PAYOUT, f"Payout of game #{game.pk}")
    return shares


@transaction.atomic
def refund(game: GameLike) -> list[int]:
    """Returns every stake of an aborted game, once. Returns the refund per seat."""
    opened = _open_bank(game.pk)
    if opened is None:
        return []
    pot, stakes, locked = opened
    if pot.closed:
        return _paid_out(pot, Transfer.Kind.REFUND, len(stakes))
    amounts = [stakes[seat].amount for seat in sorted(stakes)]
    payees = {seat: stake.source for seat, stake in stakes.items()}
    _empty(pot, payees, amounts, locked, Transfer.Kind.REFUND, f"Refund of game #{game.pk}")
    return amounts


def _is_whole(amount: object) -> bool:
    return isinstance(amount, int) and not isinstance(amount, bool)


def _accounts_of(moves: Iterable[_Move]) -> list[Account]:
    return [account for move in moves for account in (move.source, move.destination)]


def _lock(accounts: Iterable[Account]) -> dict[int, Account]:
    """Locks the accounts in id order (so two writers never wait on each other in a circle)."""
    ids = {account.pk for account in accounts}
    rows = Account.objects.select_for_update().filter(pk__in=ids).order_by("pk")
    return {account.pk: account for account in rows}


def _post(move: _Move) -> Transfer:
    locked = _lock(_accounts_of([move]))
    recorded = Transfer.objects.filter(key=move.key).first()
    return recorded if recorded is not None else _write(locked, [move])[0]


def _write(locked: dict[int, Account], moves: Sequence[_Move]) -> list[Transfer]:
    balances = {pk: account.balance for pk, account in locked.items()}
    for move in moves:
        source = locked[move.source.pk]
        player = source.user
        if player is not None and balances[source.pk] < move.amount:
            raise InsufficientChips(player, balances[source.pk], move.amount)
        balances[source.pk] -= move.amount
        balances[move.destination.pk] += move.amount
    for pk, value in balances.items():
        if value != locked[pk].balance:
            Account.objects.filter(pk=pk).update(balance=value)
            locked[pk].balance = value
    return Transfer.objects.bulk_create(
        Transfer(
            source=move.source,
            destination=move.destination,
            amount=move.amount,
            kind=move.kind,
            reason=move.reason,
            key=move.key,
            game_id=move.game_id,
            seat=move.seat,
            created_by=move.by,
        )
        for move in moves
    )


def _open_bank(game_id: int) -> tuple[Account, dict[int, Transfer], dict[int, Account]] | None:
    """The game's bank and its stakes by seat, with every account they touch locked."""
    pot = Account.objects.filter(kind=Account.Kind.BANK, game_id=game_id).first()
    if pot is None:
        return None
    staked = Transfer.objects.filter(destination=pot, kind=Transfer.Kind.STAKE)
    stakes = {
        stake.seat: stake
        for stake in staked.select_related("source__user")
        if stake.seat is not None
    }
    holder = [house_account()] if any(_held(stake) for stake in stakes.values()) else []
    locked = _lock([pot, *(stake.source for stake in stakes.values()), *holder])
    return locked[pot.pk], stakes, locked


def _held(stake: Transfer) -> bool:
    """Whether a payout for this stake is held by the house: the wallet's owner was
    deactivated (the autopilot played their seat out)."""
    owner = stake.source.user
    return owner is not None and not owner.is_active


def _empty(
    pot: Account,
    payees: dict[int, Account],
    amounts: Sequence[int],
    locked: dict[int, Account],
    kind: str,
    reason: str,
) -> None:
    """Pays each seat its amount to its payee (where its stake came from, or the house that
    holds it), and closes the bank."""
    _write(
        locked,
        [
            _Move(
                pot,
                payees[seat],
                amount,
                kind,
                reason,
                key=f"{kind}:{pot.game_id}:{seat}",
                game_id=pot.game_id,
                seat=seat,
            )
            for seat, amount in enumerate(amounts)
            if amount > 0
        ],
    )
    Account.objects.filter(pk=pot.pk).update(closed=True)


def _paid_out(pot: Account, kind: str, seats: int) -> list[int]:
    """What an earlier settle or refund paid per seat; refuses the other of the two."""
    amounts = [0] * seats
    for paid_kind, seat, amount in Transfer.objects.filter(source=pot).values_list(
        "kind", "seat", "amount"
    ):
        if paid_kind != kind:
            raise LedgerError(
                _("Game #%(game)s was already closed by a %(kind)s.")
                % {"game": pot.game_id, "kind": Transfer.Kind(paid_kind).label}
            )
        if seat is not None:
            amounts[seat] = amount
    return amounts


def audit() -> Audit:
    """Checks every account against its transfers and the rules balances obey."""
    credits = _totals_by("destination")
    debits = _totals_by("source")
    problems = []
    by_kind = dict.fromkeys(Account.Kind.values, 0)
    holding_banks: dict[int | None, Account] = {}
    accounts = 0
    for account in Account.objects.select_related("user").order_by("pk").iterator():
        accounts += 1
        by_kind[account.kind] += account.balance
        expected = credits.get(account.pk, 0) - debits.get(account.pk, 0)
        if account.balance != expected:
            problems.append(
                f"{account} caches {account.balance} chips, its transfers add up to {expected}"
            )
        if account.kind != Account.Kind.HOUSE and account.balance < 0:
            problems.append(f"{account} is below zero: {account.balance}")
        if account.kind == Account.Kind.BANK and account.balance != 0:
            if account.closed:
                problems.append(f"{account} is closed but holds {account.balance} chips")
            else:
                holding_banks[account.game_id] = account
    for game_id in _finished_games(holding_banks):
        account = holding_banks[game_id]
        problems.append(f"{account} belongs to a finished game but holds {account.balance} chips")
    total = sum(by_kind.values())
    if total != 0:
        problems.append(f"All balances add up to {total}, not zero")
    return Audit(
        accounts=accounts,
        transfers=Transfer.objects.count(),
        in_wallets=by_kind[Account.Kind.WALLET],
        in_banks=by_kind[Account.Kind.BANK],
        house=by_kind[Account.Kind.HOUSE],
        problems=problems,
    )


def _totals_by(side: str) -> dict[int, int]:
    rows = Transfer.objects.order_by().values(side).annotate(total=Sum("amount"))
    return {row[side]: row["total"] for row in rows}


def _finished_games(game_ids: Iterable[int | None]) -> list[int]:
    finished = Account.objects.filter(game__in=list(game_ids), game__finished_at__isnull=False)
    return sorted(game for game in finished.values_list("game", flat=True) if game is not None)
