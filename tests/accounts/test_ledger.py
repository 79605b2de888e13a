from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse

from accounts import ledger
from accounts.models import Account, Transfer, User
from games.models import Game

pytestmark = pytest.mark.usefixtures("ledger_audit")

MakePlayer = Callable[..., User]


def house_balance() -> int:
    return ledger.house_account().balance


@pytest.fixture
def staked(make_player: MakePlayer, make_game: Callable[[], Game]) -> tuple[User, Game]:
    """anna (100 chips) and a bot have staked 30 each in a two-seat game."""
    anna = make_player("anna", 100)
    game = make_game()
    ledger.stake_all(game, [anna, None], 30)
    return anna, game


def test_a_new_player_receives_the_welcome_grant_from_the_house(make_player: MakePlayer) -> None:
    anna = make_player("anna", 1000)
    grant = Transfer.objects.get(key=f"welcome:{anna.pk}")
    assert ledger.balance(anna) == 1000
    assert house_balance() == -1000
    assert (grant.kind, grant.amount, grant.source.kind) == ("grant", 1000, "house")


def test_the_welcome_grant_is_given_once(make_player: MakePlayer) -> None:
    anna = make_player("anna", 1000)
    ledger.grant_welcome(anna)
    assert ledger.balance(anna) == 1000
    assert Transfer.objects.count() == 1


def test_no_welcome_grant_is_recorded_when_the_setting_is_zero(make_player: MakePlayer) -> None:
    anna = make_player("anna", 0)
    assert ledger.balance(anna) == 0
    assert not Transfer.objects.exists()


def test_the_balance_of_a_player_without_a_wallet_is_zero(db: None) -> None:
    nobody = User.objects.create_user("nobody")
    assert ledger.balance(nobody) == 0


def test_an_adjustment_adds_chips_against_the_house(make_player: MakePlayer) -> None:
    anna = make_player("anna", 100)
    admin = User.objects.create_superuser("admin")
    transfer = ledger.adjust(anna, 50, "Tournament prize", by=admin)
    assert ledger.balance(anna) == 150
    assert house_balance() == -150
    assert (transfer.kind, transfer.reason, transfer.created_by) == (
        "adjustment",
        "Tournament prize",
        admin,
    )


def test_a_negative_adjustment_takes_chips_back_to_the_house(make_player: MakePlayer) -> None:
    anna = make_player("anna", 100)
    ledger.adjust(anna, -100, "Correction")
    assert ledger.balance(anna) == 0
    assert house_balance() == 0


def test_an_adjustment_with_the_same_key_is_recorded_once(make_player: MakePlayer) -> None:
    anna = make_player("anna", 100)
    first = ledger.adjust(anna, 5, "Bonus", key="adjustment:form-1")
    again = ledger.adjust(anna, 5, "Bonus", key="adjustment:form-1")
    assert again == first
    assert ledger.balance(anna) == 105


def test_an_adjustment_may_not_take_a_wallet_below_zero(make_player: MakePlayer) -> None:
    anna = make_player("anna", 100)
    with pytest.raises(ledger.InsufficientChips, match="anna has 100 chips but 101") as short:
        ledger.adjust(anna, -101, "Too much")
    assert short.value.player == anna
    assert ledger.balance(anna) == 100
    assert Transfer.objects.count() == 1


@pytest.mark.parametrize("amount", [0, 1.5, "10", True, None])
def test_an_adjustment_must_be_a_whole_number_other_than_zero(
    make_player: MakePlayer, amount: object
) -> None:
    anna = make_player("anna", 100)
    with pytest.raises(ledger.LedgerError, match="whole number"):
        ledger.adjust(anna, amount, "Reason")  # type: ignore[arg-type]
    assert ledger.balance(anna) == 100


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_an_adjustment_needs_a_reason(make_player: MakePlayer, reason: object) -> None:
    anna = make_player("anna", 100)
    with pytest.raises(ledger.LedgerError, match="reason"):
        ledger.adjust(anna, 10, reason)  # type: ignore[arg-type]
    assert ledger.balance(anna) == 100


def test_stakes_move_from_every_seat_into_the_bank(
    make_player: MakePlayer, make_game: Callable[[], Game]
) -> None:
    anna, boris = make_player("anna", 100), make_player("boris", 100)
    game = make_game()
    ledger.stake_all(game, [anna, None, boris], 30)
    assert (ledger.balance(anna), ledger.balance(boris)) == (70, 70)
    assert ledger.bank(game.pk).balance == 90
    assert house_balance() == -230
    stakes = Transfer.objects.filter(kind="stake", game_id=game.pk).order_by("seat")
    assert [(t.seat, t.source.kind, t.key) for t in stakes] == [
        (0, "wallet", f"stake:{game.pk}:0"),
        (1, "house", f"stake:{game.pk}:1"),
        (2, "wallet", f"stake:{game.pk}:2"),
    ]


def test_staking_twice_stakes_once(staked: tuple[User, Game]) -> None:
    anna, game = staked
    ledger.stake_all(game, [anna, None], 30)
    assert ledger.balance(anna) == 70
    assert ledger.bank(game.pk).balance == 60


def test_a_player_short_of_chips_is_named_and_nobody_stakes(
    make_player: MakePlayer, make_game: Callable[[], Game]
) -> None:
    anna, boris = make_player("anna", 100), make_player("boris", 20)
    game = make_game()
    with pytest.raises(ledger.InsufficientChips, match="boris has 20 chips but 30") as short:
        ledger.stake_all(game, [anna, None, boris], 30)
    assert short.value.player == boris
    assert (ledger.balance(anna), ledger.balance(boris)) == (100, 20)
    assert not Account.objects.filter(kind="bank").exists()
    assert not Transfer.objects.filter(kind="stake").exists()


def test_a_failed_stake_leaves_the_callers_transaction_usable(
    make_player: MakePlayer, make_game: Callable[[], Game]
) -> None:
    anna = make_player("anna", 10)
    with transaction.atomic():
        with pytest.raises(ledger.InsufficientChips):
            ledger.stake_all(make_game(), [anna], 30)
        ledger.adjust(anna, 20, "Top up")
    assert ledger.balance(anna) == 30


def test_a_free_table_stakes_nothing(
    make_player: MakePlayer, make_game: Callable[[], Game]
) -> None:
    anna = make_player("anna", 100)
    game = make_game()
    ledger.stake_all(game, [anna, None], 0)
    assert ledger.balance(anna) == 100
    assert not Account.objects.filter(kind="bank").exists()
    assert ledger.settle(game, [[1], [0]]) == [0, 0]
    assert ledger.refund(game) == []


@pytest.mark.parametrize("stake", [-1, 2.5, "5", False])
def test_a_stake_must_be_a_whole_number_of_chips(
    make_player: MakePlayer, make_game: Callable[[], Game], stake: object
) -> None:
    anna = make_player("anna", 100)
    with pytest.raises(ledger.LedgerError, match="whole number"):
        ledger.stake_all(make_game(), [anna], stake)  # type: ignore[arg-type]
    assert ledger.balance(anna) == 100


def test_a_game_without_seats_cannot_stake(make_game: Callable[[], Game], db: None) -> None:
    with pytest.raises(ledger.LedgerError, match="no seats"):
        ledger.stake_all(make_game(), [], 10)
    assert not Account.objects.exists()


# R14, through the ledger: (stake per seat, finishing groups, payouts per seat).
R14_EXAMPLES = [
    (50, [[0], [1]], [100, 0]),
    (50, [[1], [0]], [0, 100]),
    (100, [[2], [0], [1]], [60, 0, 240]),
    (25, [[1], [3], [0], [2]], [10, 60, 0, 30]),
    (25, [[0, 1], [2], [3]], [45, 45, 10, 0]),
    (100, [[0], [1, 2]], [240, 30, 30]),
    (25, [[0], [1], [2, 3]], [60, 30, 5, 5]),
    (50, [[0, 1]], [50, 50]),
    (250, [[3], [1], [2], [0]], [0, 300, 100, 600]),
    (1, [[0], [1], [2, 3]], [3, 1, 0, 0]),
    (1, [[2, 1], [0]], [0, 2, 1]),
]


@pytest.mark.parametrize(("stake", "groups", "payouts"), R14_EXAMPLES)
def test_settle_pays_the_bank_out_by_finishing_place(
    make_player: MakePlayer,
    make_game: Callable[[], Game],
    stake: int,
    groups: list[list[int]],
    payouts: list[int],
) -> None:
    players = [make_player(f"p{seat}", 1000) for seat in range(len(payouts))]
    game = make_game()
    ledger.stake_all(game, players, stake)
    assert ledger.settle(game, groups) == payouts
    assert [ledger.balance(p) for p in players] == [1000 - stake + pay for pay in payouts]
    pot = ledger.bank(game.pk)
    assert (pot.balance, pot.closed) == (0, True)


def test_bots_shares_go_to_the_house(
    make_player: MakePlayer, make_game: Callable[[], Game]
) -> None:
    anna = make_player("anna", 100)
    game = make_game()
    ledger.stake_all(game, [None, anna, None], 10)
    assert ledger.settle(game, [[0], [1], [2]]) == [24, 6, 0]
    assert ledger.balance(anna) == 96
    assert house_balance() == -96


def test_settling_again_returns_the_same_payouts_and_changes_nothing(
    make_player: MakePlayer, make_game: Callable[[], Game]
) -> None:
    anna, boris = make_player("anna", 100), make_player("boris", 100)
    game = make_game()
    ledger.stake_all(game, [anna, boris], 40)
    first = ledger.settle(game, [[1], [0]])
    transfers = Transfer.objects.count()
    assert ledger.settle(game, [[1], [0]]) == first == [0, 80]
    assert Transfer.objects.count() == transfers
    assert (ledger.balance(anna), ledger.balance(boris)) == (60, 140)


@pytest.mark.parametrize("groups", [[], [[0]], [[0], [0]], [[0], [2]], [[0], [1], [2]]])
def test_settle_refuses_groups_that_do_not_cover_every_staked_seat(
    staked: tuple[User, Game], groups: list[list[int]]
) -> None:
    anna, game = staked
    with pytest.raises(ledger.LedgerError, match="seat"):
        ledger.settle(game, groups)
    assert ledger.bank(game.pk).balance == 60
    assert ledger.balance(anna) == 70


def test_refund_returns_every_stake_once(staked: tuple[User, Game]) -> None:
    anna, game = staked
    assert ledger.refund(game) == [30, 30]
    assert ledger.refund(game) == [30, 30]
    assert ledger.balance(anna) == 100
    assert house_balance() == -100
    pot = ledger.bank(game.pk)
    assert (pot.balance, pot.closed) == (0, True)
    assert Transfer.objects.filter(kind="refund").count() == 2


def test_a_refunded_game_cannot_be_settled(staked: tuple[User, Game]) -> None:
    anna, game = staked
    ledger.refund(game)
    with pytest.raises(ledger.LedgerError, match="already closed by a refund"):
        ledger.settle(game, [[0], [1]])
    assert ledger.balance(anna) == 100


def test_a_settled_game_cannot_be_refunded(staked: tuple[User, Game]) -> None:
    anna, game = staked
    ledger.settle(game, [[1], [0]])
    with pytest.raises(ledger.LedgerError, match="already closed by a payout"):
        ledger.refund(game)
    assert ledger.balance(anna) == 70


def test_staking_a_settled_game_again_changes_nothing(staked: tuple[User, Game]) -> None:
    anna, game = staked
    ledger.settle(game, [[1], [0]])
    ledger.stake_all(game, [anna, None], 30)
    assert ledger.balance(anna) == 70
    assert ledger.bank(game.pk).balance == 0


def test_the_history_of_a_wallet_shows_each_change_signed(
    make_player: MakePlayer, make_game: Callable[[], Game]
) -> None:
    anna = make_player("anna", 100)
    make_player("boris", 100)
    game = make_game()
    ledger.stake_all(game, [anna, None], 30)
    ledger.settle(game, [[0], [1]])
    assert [(t.kind, t.change) for t in ledger.history(anna)] == [
        ("payout", 60),
        ("stake", -30),
        ("grant", 100),
    ]


def test_the_database_refuses_a_wallet_below_zero(make_player: MakePlayer) -> None:
    anna = make_player("anna", 100)
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(user=anna).update(balance=-1)


def test_the_database_refuses_a_bank_below_zero(make_game: Callable[[], Game], db: None) -> None:
    pot = ledger.bank(make_game().pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(pk=pot.pk).update(balance=-1)


def test_the_house_may_go_below_zero(make_player: MakePlayer) -> None:
    make_player("anna", 100)
    assert house_balance() == -100


def test_there_is_one_house(db: None) -> None:
    ledger.house_account()
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(kind="house")


def test_the_database_refuses_a_transfer_of_no_chips(make_player: MakePlayer) -> None:
    anna = make_player("anna", 100)
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.create(
            source=ledger.house_account(),
            destination=ledger.wallet(anna),
            amount=0,
            kind="grant",
            reason="Nothing",
            key="zero",
        )


def test_transfers_are_never_edited_or_deleted(make_player: MakePlayer) -> None:
    anna = make_player("anna", 100)
    grant = Transfer.objects.get()
    grant.amount = 1_000_000
    with pytest.raises(TypeError, match="correcting transfer"):
        grant.save()
    with pytest.raises(TypeError, match="correcting transfer"):
        grant.delete()
    with pytest.raises(TypeError, match="correcting transfer"):
        Transfer.objects.update(amount=1)
    with pytest.raises(TypeError, match="correcting transfer"):
        Transfer.objects.all().delete()
    assert ledger.balance(anna) == 100
    assert Transfer.objects.get().amount == 100


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_a_bank_for_a_game_that_does_not_exist() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        ledger.bank(987_654)
    assert not Account.objects.filter(kind="bank").exists()


def test_a_game_with_chips_on_record_cannot_be_deleted(staked: tuple[User, Game]) -> None:
    _anna, game = staked
    with pytest.raises(ProtectedError), transaction.atomic():
        game.delete()
    assert Transfer.objects.filter(game=game).count() == 2


def test_the_admin_finds_a_games_transfers_by_its_number(
    admin_client: Client, staked: tuple[User, Game]
) -> None:
    _anna, game = staked
    page = admin_client.get(reverse("admin:accounts_transfer_changelist"), {"q": game.pk})
    assert page.status_code == 200 and "2 results" in page.content.decode()


def test_a_deactivated_players_payout_is_held_by_the_house(
    make_player: MakePlayer, make_game: Callable[[], Game]
) -> None:
    anna, boris = make_player("anna", 100), make_player("boris", 100)
    game = make_game()
    ledger.stake_all(game, [anna, boris], 10)
    User.objects.filter(pk=boris.pk).update(is_active=False)
    house = ledger.house_account().balance
    assert ledger.settle(game, [[1], [0]]) == [0, 20]
    assert (ledger.balance(anna), ledger.balance(boris)) == (90, 90)
    assert ledger.house_account().balance == house + 20
    held = Transfer.objects.get(game=game, kind=Transfer.Kind.PAYOUT)
    assert held.destination == ledger.house_account() and held.seat == 1
