from __future__ import annotations

from games.table import tables
from tests.support.tables import open_table


def test_a_private_table_without_its_invite_says_so_in_the_sites_layout(anna, client):
    table = open_table(anna, private=True)
    response = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response.status_code == 403
    assert "This table is private: ask its players for the invite link." in page
    assert 'class="site-header"' in page and 'data-action="back-to-lobby"' in page


def test_a_private_table_opens_with_its_invite(anna, client):
    table = open_table(anna, private=True)
    response = client.get(f"/tables/{table.pk}/?invite={table.invite_code}")
    assert response.status_code == 200


def test_a_closed_table_says_it_was_closed(anna, client):
    table = open_table(anna)
    tables.leave(table.pk, anna)
    tables.close_table(table.pk)
    response = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert "This table was closed." in response.content.decode()


def test_a_table_that_never_existed_is_not_found(db, client):
    response = client.get("/tables/999/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert "There is no such table." in response.content.decode()


def test_the_error_page_speaks_the_players_language(anna, client):
    table = open_table(anna, private=True)
    page = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Это закрытый стол: попросите у его игроков ссылку-приглашение." in page


def test_sitting_elsewhere_links_the_players_table_with_a_button_to_leave_it(anna, boris, client):
    mine = open_table(anna)
    other = open_table(boris)
    client.force_login(anna)
    response = client.post(
        f"/tables/{other.pk}/join/", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en"
    )
    notice = response.content.decode()
    assert "You already sit at the table “Test table”; leave it first." in notice
    assert f'href="/tables/{mine.pk}/"' in notice
    assert (
        f'hx-post="/tables/{mine.pk}/leave/"' in notice and 'data-action="leave-my-table"' in notice
    )
    assert "hx-swap-oob" not in notice, "an answer to a request lands in #notice itself"


def test_quick_play_tells_a_seated_player_where_they_sit(anna, client):
    mine = open_table(anna)
    client.force_login(anna)
    response = client.post("/tables/quick/", {"stake": 0}, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == "/"
    assert "You already sit at the table “Test table”" in page
    assert f'href="/tables/{mine.pk}/"' in page and 'data-action="leave-my-table"' in page


def test_leaving_from_that_message_goes_back_to_the_lobby(anna, client):
    mine = open_table(anna)
    client.force_login(anna)
    response = client.post(f"/tables/{mine.pk}/leave/")
    assert response.status_code == 302 and response["Location"] == "/"


def pause_new_games(by) -> None:
    from staff.models import NewGamesPause

    NewGamesPause.objects.create(started_by=by, reason="Restart")


def test_while_new_games_are_paused_the_lobby_says_so_beside_quick_play(anna, client):
    from lxml import html

    pause_new_games(anna)
    client.force_login(anna)
    page = html.fromstring(client.get("/", HTTP_ACCEPT_LANGUAGE="en").content)
    (actions,) = page.cssselect(".lobby-actions")
    assert "New games are paused" in actions.text_content()


def test_quick_play_while_new_games_are_paused_says_the_game_waits_for_the_staff(anna, client):
    pause_new_games(anna)
    client.force_login(anna)
    response = client.post("/tables/quick/", {"stake": 0}, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert response.redirect_chain[-1][0].startswith("/tables/")
    assert "no game starts until the staff let new games start again" in response.content.decode()
