from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from django.urls import reverse

from accounts import ledger
from accounts.models import Account, Transfer, User

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

MakePlayer = Callable[..., User]
KEY = "0b0e5b3e-8a39-4d3c-9f6e-2d4c1a7b9e10"

pytestmark = pytest.mark.usefixtures("ledger_audit")


def adjust(client: Client, players: list[User], **fields: str) -> Response:
    data = {
        "action": "adjust_balance",
        ACTION_CHECKBOX_NAME: [player.pk for player in players],
        **fields,
    }
    return client.post(reverse("admin:accounts_user_changelist"), data)


def test_the_action_first_asks_for_an_amount_and_a_reason(
    admin_client: Client, make_player: MakePlayer
) -> None:
    anna = make_player("anna", 100)
    response = adjust(admin_client, [anna])
    assert response.status_code == 200
    assert set(response.context["form"].fields) == {"amount", "reason", "key"}
    assert ledger.balance(anna) == 100


def test_adjusting_writes_an_adjustment_against_the_house_for_each_player(
    admin_client: Client, make_player: MakePlayer
) -> None:
    anna, boris = make_player("anna", 100), make_player("boris", 100)
    response = adjust(
        admin_client, [anna, boris], apply="1", amount="25", reason="Apology", key=KEY
    )
    assert response.status_code == 302
    assert (ledger.balance(anna), ledger.balance(boris)) == (125, 125)
    adjustments = Transfer.objects.filter(kind="adjustment")
    assert set(adjustments.values_list("reason", "created_by__username")) == {("Apology", "admin")}


def test_submitting_the_same_adjustment_twice_adjusts_once(
    admin_client: Client, make_player: MakePlayer
) -> None:
    anna = make_player("anna", 100)
    for _ in range(2):
        adjust(admin_client, [anna], apply="1", amount="-40", reason="Chargeback", key=KEY)
    assert ledger.balance(anna) == 60


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"amount": "0", "reason": "Nothing"}, "amount"),
        ({"amount": "ten", "reason": "Words"}, "amount"),
        ({"amount": "1.5", "reason": "Halves"}, "amount"),
        ({"amount": "10", "reason": ""}, "reason"),
    ],
)
def test_a_bad_adjustment_says_what_is_wrong_and_changes_nothing(
    admin_client: Client, make_player: MakePlayer, fields: dict[str, str], field: str
) -> None:
    anna = make_player("anna", 100)
    response = adjust(admin_client, [anna], apply="1", key=KEY, **fields)
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert ledger.balance(anna) == 100
    assert not Transfer.objects.filter(kind="adjustment").exists()


def test_an_adjustment_below_zero_for_one_player_changes_no_one(
    admin_client: Client, make_player: MakePlayer
) -> None:
    anna, boris = make_player("anna", 100), make_player("boris", 10)
    response = adjust(admin_client, [anna, boris], apply="1", amount="-50", reason="Fine", key=KEY)
    assert "boris has 10 chips but 50 are needed." in response.content.decode()
    assert (ledger.balance(anna), ledger.balance(boris)) == (100, 10)


@pytest.mark.parametrize("model", [Account, Transfer])
def test_the_ledger_is_read_only_in_the_admin(
    admin_client: Client, make_player: MakePlayer, model: type[Account | Transfer]
) -> None:
    make_player("anna", 100)
    name = f"admin:accounts_{model._meta.model_name}"
    pk = model.objects.earliest("pk").pk
    assert admin_client.get(reverse(f"{name}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"{name}_change", args=[pk])).status_code == 200
    assert admin_client.get(reverse(f"{name}_add")).status_code == 403
    assert admin_client.post(reverse(f"{name}_delete", args=[pk])).status_code == 403
    assert Transfer.objects.count() == 1
