from __future__ import annotations

import pytest

from games.models import Game, Seat, Table
from games.records import practice
from games.records.verification import verify
from games.table import play, tables
from tests.games.history_helpers import played, record_of
from tests.support.tables import open_table, play_out, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


def test_practising_a_deal_deals_the_same_cards_from_the_chosen_seat_against_bots(
    client, anna, boris, frozen_clock
):
    (original,) = played(boris, players=3, stake=10)
    client.force_login(anna)
    answer = client.post(f"/games/{original.pk}/practice/", {"seat": "2", "level": "strong"})
    table = Table.objects.get(practice_of=original)
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{table.pk}/"
    assert table.private and table.stake == 0 and table.seats == 3
    seats = {seat.position: seat for seat in table.seat_set.all()}
    assert seats[2].player == anna and seats[0].bot_level == seats[1].bot_level == "strong"
    game = start_when_due(table, frozen_clock)
    assert game.deal["hands"] == original.deal["hands"]
    assert game.deal["talon"] == original.deal["talon"]
    assert game.practice_of == original and game.stake == 0
    play_out(game, frozen_clock)
    assert verify(record_of(game))


def test_a_practice_table_is_named_in_the_readers_language(anna, boris):
    from django.utils import translation

    (original,) = played(boris)
    with translation.override("ru"):
        table = practice.practise(original, anna, 0, "easy")
    with translation.override("en"):
        assert table.title == f"Practice: the deal of game #{original.pk}"
    with translation.override("ru"):
        assert table.title == f"Тренировка: сдача партии №{original.pk}"


def test_playing_a_practice_table_again_deals_the_same_cards_again(anna, frozen_clock):
    (original,) = played(anna)
    table = practice.practise(original, anna, 0, "easy")
    first = play_out(start_when_due(table, frozen_clock), frozen_clock)
    tables.play_again(table.pk, anna)
    second = start_when_due(table, frozen_clock)
    assert first.deal["hands"] == second.deal["hands"] == original.deal["hands"]
    assert second.practice_of_id == original.pk
    play.abort(second.pk)


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"seat": "2", "level": "easy"}, "There is no such seat."),
        ({"seat": "0", "level": "genius"}, "Choose a seat and the bots&#x27; level."),
        ({}, "Choose a seat and the bots&#x27; level."),
    ],
)
def test_a_practice_that_cannot_start_says_why_and_opens_nothing(client, anna, form, message):
    (original,) = played(anna)
    client.force_login(anna)
    answer = client.post(f"/games/{original.pk}/practice/", form, follow=True)
    assert message in answer.content.decode()
    assert not Table.objects.filter(practice_of=original).exists()


def test_a_player_seated_elsewhere_or_a_running_game_cannot_be_practised(
    client, anna, boris, frozen_clock
):
    (original,) = played(anna)
    open_table(anna, stake=0)
    client.force_login(anna)
    answer = client.post(f"/games/{original.pk}/practice/", {"seat": "0"}, follow=True)
    assert "leave it first" in answer.content.decode()
    table = open_table(boris, stake=0)
    tables.add_bot(table.pk, boris)
    running = start_when_due(table, frozen_clock)
    client.force_login(boris)
    Seat.objects.filter(player=boris).delete()
    answer = client.post(f"/games/{running.pk}/practice/", {"seat": "0"}, follow=True)
    assert "still running" in answer.content.decode()
    assert Game.objects.filter(practice_of__isnull=False).count() == 0


def seated_after_a_game(player, frozen_clock) -> tuple[Table, Game]:
    table = open_table(player, stake=0)
    tables.add_bot(table.pk, player)
    game = play_out(start_when_due(table, frozen_clock), frozen_clock)
    assert Seat.objects.filter(table=table, player=player).exists()
    return table, game


def test_practising_right_after_a_game_offers_to_leave_that_table_and_go_on(
    client, anna, frozen_clock
):
    table, game = seated_after_a_game(anna, frozen_clock)
    client.force_login(anna)
    answer = client.post(
        f"/games/{game.pk}/practice/", {"seat": "1", "level": "strong"}, follow=True
    )
    page = answer.content.decode()
    assert f"You already sit at the table “{table.name}”" in page
    assert f'href="/tables/{table.pk}/"' in page
    assert 'data-action="leave-and-practise"' in page
    assert 'name="leave" value="1"' in page and 'name="seat" value="1"' in page
    assert 'name="level" value="strong"' in page


def test_leaving_and_practising_in_one_step_frees_the_old_seat_and_opens_the_practice(
    client, anna, frozen_clock
):
    table, game = seated_after_a_game(anna, frozen_clock)
    client.force_login(anna)
    answer = client.post(
        f"/games/{game.pk}/practice/", {"seat": "0", "level": "easy", "leave": "1"}
    )
    practice_table = Table.objects.get(practice_of=game)
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{practice_table.pk}/"
    assert not Seat.objects.filter(table=table, player=anna).exists()
    assert practice_table.seat_set.get(position=0).player == anna
