from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from accounts import ledger
from accounts.models import Transfer, User
from tests.accounts.conftest import PASSWORD, a_game

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

MakePlayer = Callable[..., User]

pytestmark = pytest.mark.usefixtures("ledger_audit")


def signup(client: Client, **fields: str) -> Response:
    data = {"username": "vera", "password1": PASSWORD, "password2": PASSWORD, "email": ""}
    return client.post(reverse("signup"), {**data, **fields})


def test_signing_up_creates_the_player_grants_chips_and_logs_in(
    client: Client, settings: object, db: None
) -> None:
    settings.WELCOME_GRANT = 1000  # type: ignore[attr-defined]
    response = signup(client, email="vera@example.com")
    vera = User.objects.get(username="vera")
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert vera.email == "vera@example.com"
    assert ledger.balance(vera) == 1000
    assert client.get(reverse("profile")).context["user"] == vera


def test_the_signup_page_offers_the_form(client: Client, db: None) -> None:
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    assert set(response.context["form"].fields) == {"username", "email", "password1", "password2"}


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"password2": "something-else-entirely"}, "password2"),
        ({"username": ""}, "username"),
        ({"username": "bad name!"}, "username"),
        ({"password1": "123", "password2": "123"}, "password2"),
        ({"email": "not-an-email"}, "email"),
    ],
)
def test_a_malformed_signup_says_what_is_wrong_and_creates_nothing(
    client: Client, db: None, fields: dict[str, str], field: str
) -> None:
    response = signup(client, **fields)
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert not User.objects.exists()
    assert not Transfer.objects.exists()


def test_a_taken_username_is_refused_whatever_its_case(
    client: Client, make_player: MakePlayer
) -> None:
    make_player("vera", 1000)
    response = signup(client, username="VERA")
    assert response.context["form"].errors["username"]
    assert User.objects.count() == 1
    assert Transfer.objects.count() == 1


def test_logging_in_and_out(client: Client, make_player: MakePlayer) -> None:
    anna = make_player("anna")
    response = client.post(reverse("login"), {"username": "anna", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("profile")).context["user"] == anna
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("profile")).status_code == 302


def test_logging_out_needs_a_post(client: Client, make_player: MakePlayer) -> None:
    client.force_login(make_player("anna"))
    assert client.get(reverse("logout")).status_code == 405


def test_login_is_locked_after_five_failures_with_a_clear_message(
    client: Client, make_player: MakePlayer
) -> None:
    make_player("anna")
    for _ in range(5):
        client.post(reverse("login"), {"username": "anna", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "anna", "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many failed attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def login(client: Client, username: str, password: str) -> int:
    return client.post(reverse("login"), {"username": username, "password": password}).status_code


def test_logging_into_an_own_account_forgives_no_failures_for_another(
    client: Client, make_player: MakePlayer
) -> None:
    make_player("boris")
    make_player("mallory")
    answers = []
    with time_machine.travel(1_800_000_000.0, tick=False) as traveller:
        for _ in range(3):
            answers += [login(client, "boris", "guess") for _ in range(4)]
            assert login(client, "mallory", PASSWORD) == 302
            client.post(reverse("logout"))
            traveller.shift(61)
        assert 429 in answers
        assert login(client, "boris", PASSWORD) == 429
    assert login(Client(REMOTE_ADDR="10.1.2.3"), "boris", PASSWORD) == 302


def test_a_sign_up_does_not_lift_a_lock(client: Client, make_player: MakePlayer) -> None:
    make_player("anna")
    for _ in range(5):
        login(client, "anna", "wrong")
    assert signup(client).status_code == 302
    client.post(reverse("logout"))
    assert login(client, "anna", PASSWORD) == 429


def test_made_up_names_from_an_address_lock_out_nobody_there_who_knows_their_password(
    client: Client, make_player: MakePlayer
) -> None:
    make_player("boris")
    for name in ("anna", "vera", "gleb", "dima", "olga", "ivan"):
        login(client, name, "guess")
    assert login(client, "boris", PASSWORD) == 302


def test_spraying_from_an_address_is_slowed_to_ten_logins_a_minute(
    client: Client, make_player: MakePlayer
) -> None:
    make_player("boris")
    answers = [login(client, f"name{number}", "guess") for number in range(12)]
    assert answers[:10] == [200] * 10 and answers[10:] == [429, 429]
    slowed = client.post(reverse("login"), {"username": "boris", "password": PASSWORD})
    assert "Too many logins from your address" in slowed.content.decode()
    assert login(Client(REMOTE_ADDR="10.1.2.3"), "boris", PASSWORD) == 302


def test_one_address_signs_up_at_most_three_players_an_hour(client: Client, db: None) -> None:
    for name in ("vera", "gleb", "dima"):
        assert signup(Client(), username=name).status_code == 302
    refused = signup(client, username="olga")
    assert refused.status_code == 429
    assert "Too many sign-ups from your address" in refused.content.decode()
    assert not User.objects.filter(username="olga").exists()
    assert signup(Client(REMOTE_ADDR="10.1.2.3"), username="olga").status_code == 302


def test_the_profile_needs_a_login(client: Client, db: None) -> None:
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_profile_shows_the_balance_and_signed_ledger_entries(
    client: Client, make_player: MakePlayer
) -> None:
    anna = make_player("anna", 100)
    game = a_game()
    ledger.stake_all(game, [anna, None], 30)
    client.force_login(anna)
    page = client.get(reverse("profile")).content.decode()
    assert "You have 70 chips." in page
    assert "-30" in page and "+100" in page
    assert f"Game #{game.pk}" in page
    assert f"Stake for game #{game.pk}" in page


def test_the_profile_pages_ledger_entries_twenty_at_a_time(
    client: Client, make_player: MakePlayer
) -> None:
    anna = make_player("anna", 100)
    for number in range(24):
        ledger.adjust(anna, 1, f"Bonus {number}")
    client.force_login(anna)
    first = client.get(reverse("profile")).context["entries"]
    second = client.get(reverse("profile"), {"page": 2}).context["entries"]
    assert [entry.reason for entry in first][:2] == ["Bonus 23", "Bonus 22"]
    assert (len(first), len(second)) == (20, 5)
    assert second[-1].kind == "grant"
    assert client.get(reverse("profile"), {"page": "nonsense"}).context["entries"].number == 1


def test_the_header_shows_the_balance(client: Client, make_player: MakePlayer) -> None:
    client.force_login(make_player("anna", 250))
    assert "250 chips" in client.get(reverse("profile")).content.decode()


def test_the_public_profile_hides_the_balance_unless_the_player_shows_it(
    client: Client, make_player: MakePlayer
) -> None:
    anna = make_player("anna", 321)
    url = reverse("player_profile", args=["anna"])
    assert "321" not in client.get(url).content.decode()
    client.force_login(anna)
    assert client.post(reverse("profile"), {"show_balance": "on"}).status_code == 302
    anna.refresh_from_db()
    assert anna.show_balance
    client.logout()
    assert "Has 321 chips." in client.get(url).content.decode()


def test_an_unknown_player_has_no_profile(client: Client, db: None) -> None:
    assert client.get(reverse("player_profile", args=["ghost"])).status_code == 404


def test_changing_the_password(client: Client, make_player: MakePlayer) -> None:
    anna = make_player("anna")
    client.force_login(anna)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-password-7",
            "new_password2": "another-long-password-7",
        },
    )
    assert response["Location"] == reverse("password_change_done")
    anna.refresh_from_db()
    assert anna.check_password("another-long-password-7")
    assert client.get(reverse("password_change_done")).status_code == 200


def test_a_wrong_old_password_changes_nothing(client: Client, make_player: MakePlayer) -> None:
    anna = make_player("anna")
    client.force_login(anna)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "wrong",
            "new_password1": "x-long-pass-99",
            "new_password2": "x-long-pass-99",
        },
    )
    assert response.context["form"].errors["old_password"]
    anna.refresh_from_db()
    assert anna.check_password(PASSWORD)


def test_the_ledgers_reasons_are_said_in_the_readers_language(
    make_player: MakePlayer, admin_user: User
) -> None:
    from django.utils import translation

    anna = make_player("anna", 100)
    game = a_game()
    with translation.override("en"):
        ledger.stake_all(game, [anna, None], 30)
        ledger.settle(game, [[0], [1]])
        ledger.adjust(anna, 5, "Lost chips after a crash", by=admin_user)
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru")
    russian.force_login(anna)
    page = russian.get(reverse("profile")).content.decode()
    assert "Приветственный бонус" in page
    assert f"Ставка в партии №{game.pk}" in page and f"Выплата за партию №{game.pk}" in page
    assert "Lost chips after a crash" in page
    assert "Welcome grant" not in page and "Stake for game" not in page
    admin_user.language = "ru"
    admin_user.save(update_fields=["language"])
    russian.force_login(admin_user)
    staff_page = russian.get(reverse("staff_player", args=[anna.pk])).content.decode()
    assert f"Ставка в партии №{game.pk}" in staff_page and "Stake for game" not in staff_page
