from __future__ import annotations

import pytest

from games.engine import deal_salt, fair_deal, seed_commitment
from games.models import Table
from games.table import fairness, tables
from tests.support.tables import open_table, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


def test_a_table_commits_to_its_next_deal_before_anybody_sees_a_card(anna, boris, frozen_clock):
    table = open_table(anna, stake=0)
    table.refresh_from_db()
    committed = table.next_seed_hash
    assert committed == seed_commitment(table.next_seed.encode())
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    assert game.seed_hash == committed
    assert seed_commitment(game.seed.encode()) == committed
    table.refresh_from_db()
    assert table.next_seed == "" or table.next_seed_hash != committed


def test_each_seated_browsers_seed_goes_into_the_deal_and_a_missing_one_is_empty(
    anna, boris, frozen_clock
):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    table.refresh_from_db()
    fairness.contribute(table.pk, anna, "c0ffee", table.next_seed_hash)
    game = start_when_due(table, frozen_clock)
    assert game.client_seeds == ["c0ffee", ""]
    deal = fair_deal(2, game.seed.encode(), deal_salt(game.pk, ["c0ffee", ""]))
    assert game.deal["hands"] == [[str(card) for card in hand] for hand in deal.hands]
    assert game.deal["talon"] == [str(card) for card in deal.talon]


def test_a_bots_seed_comes_from_the_server(anna, frozen_clock):
    table = open_table(anna, stake=0)
    tables.add_bot(table.pk, anna)
    game = start_when_due(table, frozen_clock)
    mine, bots = game.client_seeds
    assert mine == "" and len(bots) == 32 and int(bots, 16) >= 0


@pytest.mark.parametrize(
    ("seed", "which", "message_text"),
    [
        ("XYZ", "current", "1 to 64 lowercase hexadecimal digits"),
        ("a" * 65, "current", "1 to 64 lowercase hexadecimal digits"),
        ("", "current", "1 to 64 lowercase hexadecimal digits"),
        ("abc", "stale", "already been dealt"),
    ],
)
def test_a_seed_that_cannot_be_used_is_refused_and_changes_nothing(anna, seed, which, message_text):
    table = open_table(anna, stake=0)
    table.refresh_from_db()
    committed = table.next_seed_hash if which == "current" else "0" * 64
    with pytest.raises(fairness.SeedRefused, match=message_text):
        fairness.contribute(table.pk, anna, seed, committed)
    assert table.seat_set.get(player=anna).client_seed == ""


def test_only_a_seated_player_adds_a_seed(anna, boris):
    table = open_table(anna, stake=0)
    table.refresh_from_db()
    with pytest.raises(fairness.SeedRefused, match="You do not sit at this table"):
        fairness.contribute(table.pk, boris, "abc", table.next_seed_hash)


def test_the_seed_page_answers_a_seated_player_and_refuses_bad_seeds(client, anna):
    table = open_table(anna, stake=0)
    table.refresh_from_db()
    client.force_login(anna)
    url = f"/tables/{table.pk}/seed/"
    ok = client.post(url, {"seed": "abc123", "commitment": table.next_seed_hash})
    assert ok.status_code == 200
    refused = client.post(url, {"seed": "nope", "commitment": table.next_seed_hash})
    assert refused.status_code == 400 and "hexadecimal" in refused.json()["error"]
    assert Table.objects.get(pk=table.pk).seat_set.get(player=anna).client_seed == "abc123"


def test_the_waiting_table_shows_the_commitment_and_the_running_game_keeps_the_seed_hidden(
    client, anna, boris, frozen_clock
):
    table = open_table(anna, stake=0)
    table.refresh_from_db()
    client.force_login(boris)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert table.next_seed_hash in page and table.next_seed not in page
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    assert game.seed not in client.get(f"/tables/{table.pk}/").content.decode()
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert game.seed_hash in page and game.seed not in page


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_game_page_links_the_fair_deal_explained_instead_of_the_readme(
    client, anna, frozen_clock, language
):
    from tests.support.tables import play_out

    table = open_table(anna, stake=0)
    tables.add_bot(table.pk, anna)
    game = play_out(start_when_due(table, frozen_clock), frozen_clock)
    client.cookies["django_language"] = language
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "README" not in page
    assert 'href="/rules/#fair-deal"' in page
