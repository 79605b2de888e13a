from __future__ import annotations

import pytest
from django.utils.html import escape

from games.models import Game, Table
from games.records import history
from games.table import play, tables
from tests.games.history_helpers import played
from tests.support.tables import open_table, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


def listed(client, query: str = "") -> list[int]:
    page = client.get(f"/history/{query}")
    assert page.status_code == 200
    return [row.game.pk for row in page.context["rows"]]


def test_the_history_needs_a_login(client):
    assert client.get("/history/").status_code == 302


def test_the_history_lists_exactly_the_players_games_newest_first(client, anna, boris):
    annas = played(anna, games=2, stake=10)
    boriss = played(boris, games=1)
    played(None, games=1)
    client.force_login(anna)
    assert listed(client) == [game.pk for game in reversed(annas)]
    client.force_login(boris)
    assert listed(client) == [boriss[0].pk]


def test_each_row_shows_date_table_places_stake_payout_duration_and_a_link(client, anna):
    (game,) = played(anna, stake=10)
    client.force_login(anna)
    page = client.get("/history/").content.decode()
    mine = game.players.get(player=anna)
    assert escape(game.table.name) in page and f"/games/{game.pk}/" in page
    assert f"{mine.place}. anna" in page and "Bot 2" in page
    assert f'<td data-label="Payout">{mine.payout} ' in page
    assert ":" in page.split('data-label="Duration">')[1][:8]


def test_a_stopped_game_is_listed_as_every_stake_returned_never_a_draw(
    client, anna, boris, frozen_clock
):
    table = open_table(anna, stake=25)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    play.abort(game.pk)
    client.force_login(anna)
    page = client.get("/history/").content.decode()
    assert "Stopped by the staff: every stake returned" in page and "25 returned" in page
    assert "draw" not in page.lower()
    assert listed(client, "?result=stopped") == [game.pk]
    assert listed(client, "?result=won") == []


def test_the_filters_select_by_result_players_and_stake(client, anna):
    twos = played(anna, games=2, players=2, stake=5)
    (three,) = played(anna, players=3)
    client.force_login(anna)
    assert listed(client, "?players=3") == [three.pk]
    assert listed(client, "?stake=5") == [g.pk for g in reversed(twos)]
    assert listed(client, "?stake=0") == [three.pk]
    games = Game.objects.filter(players__player=anna)
    durak = [g.pk for g in games.filter(players__player=anna, players__durak=True)]
    assert sorted(listed(client, "?result=durak")) == sorted(durak)
    won = [
        g.pk
        for g in games
        if g.players.get(player=anna).place == 1 and not g.players.get(player=anna).durak
    ]
    assert sorted(listed(client, "?result=won")) == sorted(won)
    refused = client.get("/history/?players=9")
    assert "Select a valid choice" in refused.content.decode()
    assert len(refused.context["rows"]) == 3


def test_the_history_is_paged_keeping_the_filters(client, anna, monkeypatch):
    monkeypatch.setattr(history, "PER_PAGE", 2)
    games = played(anna, games=3)
    client.force_login(anna)
    assert listed(client) == [games[2].pk, games[1].pk]
    assert listed(client, "?page=2") == [games[0].pk]
    page = client.get("/history/?players=2").content.decode()
    assert 'href="?players=2&amp;page=2"' in page


def test_another_players_history_shows_only_public_tables(client, anna, boris):
    (public,) = played(anna)
    (private,) = played(anna)
    Table.objects.filter(games=private).update(private=True)
    client.force_login(boris)
    assert listed(client, "?player=anna") == [public.pk]
    assert client.get("/history/?player=nobody").status_code == 404


def test_the_profiles_link_to_the_history(client, anna, boris):
    client.force_login(anna)
    assert 'href="/history/"' in client.get("/accounts/profile/").content.decode()
    assert 'href="/history/?player=boris"' in client.get("/players/boris/").content.decode()


def test_a_private_tables_game_page_is_for_its_players_and_staff(client, anna, boris, clara):
    (game,) = played(anna)
    Table.objects.filter(games=game).update(private=True)
    client.force_login(clara)
    assert client.get(f"/games/{game.pk}/").status_code == 403
    clara.is_staff = True
    clara.save()
    assert client.get(f"/games/{game.pk}/").status_code == 200
    client.force_login(anna)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert game.seed in page and 'data-action="verify"' in page and 'id="replay"' in page
