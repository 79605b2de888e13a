"""Every POST that seats a player, sent ten times at once by one player on PostgreSQL (a
double click, a nervous finger): one seat, and every other answer is the clear refusal a
second click gets, never a 500."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client

from accounts.models import User
from games.models import Seat, Table
from tests.games.history_helpers import played
from tests.support.tables import open_table

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("ledger_audit"),
]
CLICKS = 10


def all_at_once(player: User, post: Callable[[Client], Any]) -> list[Any]:
    """``post`` from CLICKS clients of ``player``, each on its own thread and connection."""
    clients = []
    for _ in range(CLICKS):
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(player)
        clients.append(client)
    start = threading.Barrier(CLICKS)

    def run(client: Client) -> Any:
        try:
            start.wait()
            return post(client)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=CLICKS) as pool:
        return list(pool.map(run, clients))


def said(response: Any) -> str:
    """What the answer tells the player: its messages, or the page or fragment itself."""
    lines = [str(message) for message in get_messages(response.wsgi_request)]
    return " ".join(lines) or response.content.decode()


def assert_one_seat_and_clear_refusals(player: User, answers: list[Any], refusal: str) -> None:
    assert [answer.status_code for answer in answers if answer.status_code >= 500] == []
    assert Seat.objects.filter(player=player).count() == 1
    refused = [answer for answer in answers if refusal in said(answer)]
    assert len(refused) == CLICKS - 1, [said(answer)[:200] for answer in answers]


def test_practising_a_deal_ten_times_at_once_opens_one_table(anna):
    (game,) = played(anna)
    answers = all_at_once(
        anna,
        lambda client: client.post(f"/games/{game.pk}/practice/", {"seat": 0, "level": "easy"}),
    )
    assert Table.objects.filter(practice_of=game).count() == 1
    assert_one_seat_and_clear_refusals(anna, answers, "You already sit at the table")


def test_joining_ten_tables_at_once_seats_the_player_at_one(anna, boris):
    choices = []
    for _ in range(CLICKS):
        choices.append(open_table(boris, stake=0))
        Seat.objects.filter(player=boris).delete()
    pending = iter(choices)
    lock = threading.Lock()

    def join(client: Client) -> Any:
        with lock:
            table = next(pending)
        return client.post(f"/tables/{table.pk}/join/")

    answers = all_at_once(anna, join)
    assert_one_seat_and_clear_refusals(anna, answers, "You already sit at the table")


def test_opening_ten_tables_at_once_opens_one(anna):
    form = {"name": "Mine", "stake": 0, "seats": 2, "move_time": 30, "bots_allowed": "on"}
    answers = all_at_once(anna, lambda client: client.post("/tables/new/", form))
    assert Table.objects.filter(creator=anna).count() == 1
    assert_one_seat_and_clear_refusals(anna, answers, "You already sit at the table")


def test_quick_play_ten_times_at_once_seats_the_player_once(anna):
    answers = all_at_once(anna, lambda client: client.post("/tables/quick/", {"stake": 0}))
    assert_one_seat_and_clear_refusals(anna, answers, "You already sit at the table")
