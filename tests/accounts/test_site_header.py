"""The header every page shows: the way to a player's games, and their chips if they have any."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from django.urls import reverse
from lxml import html

from accounts.models import Account, User

MakePlayer = Callable[..., User]


def header(client: Client) -> html.HtmlElement:
    page = html.fromstring(client.get(reverse("leaderboard")).content)
    return page.cssselect("header.site-header")[0]


def test_a_player_finds_my_games_in_the_header_of_every_page(
    client: Client, make_player: MakePlayer
) -> None:
    client.force_login(make_player("vera"))
    links = {a.text_content().strip(): a.get("href") for a in header(client).iter("a")}
    assert links["My games"] == reverse("history")


def test_a_staff_member_without_a_wallet_has_no_chips_pill(client: Client, db: None) -> None:
    sofia = User.objects.create_user("sofia", password="staff-only-password", is_staff=True)
    assert not Account.objects.filter(user=sofia).exists()
    client.force_login(sofia)
    assert header(client).cssselect(".balance") == []


def test_a_player_with_a_wallet_sees_their_chips_in_the_header(
    client: Client, make_player: MakePlayer
) -> None:
    client.force_login(make_player("vera"))
    assert header(client).cssselect(".balance")[0].text_content().strip() == "1000 chips"
