"""The lines a reader sees at a table: the latest, oldest first, less those of the muted."""

from __future__ import annotations

import pytest

from accounts.services import create_player
from chat import rendering, services
from chat.models import Message
from games.table import tables
from tests.support.tables import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(anna, boris):
    table = open_table(anna, stake=0, seats=3)
    tables.join(table.pk, boris)
    return table


def said(lines: list[Message]) -> list[tuple[str, str]]:
    return [(line.author.username, line.text) for line in lines]


def test_a_reader_sees_the_latest_lines_oldest_first_each_with_its_author(table, anna, boris):
    for number in range(rendering.PANEL_LINES + 3):
        services.post(table.pk, anna if number % 2 else boris, text=f"line {number}")
    lines = rendering.recent(table.pk, set())
    assert [line.text for line in lines] == [
        f"line {number}" for number in range(3, rendering.PANEL_LINES + 3)
    ]
    expected = Message.objects.filter(table=table).select_related("author").order_by("-id")
    for line, stored in zip(lines, reversed(expected[: rendering.PANEL_LINES]), strict=True):
        assert (line.pk, line.kind, line.seat, line.created_at, line.hidden_at) == (
            stored.pk,
            stored.kind,
            stored.seat,
            stored.created_at,
            stored.hidden_at,
        )
        assert (line.author.pk, line.author.username) == (stored.author_id, stored.author.username)


def test_a_reader_does_not_see_the_lines_of_the_players_they_muted(table, anna, boris):
    carl = create_player("carl", "carl-secret-pass")
    tables.join(table.pk, carl)
    for author, text in ((anna, "hello"), (boris, "hi"), (carl, "hey"), (anna, "go")):
        services.post(table.pk, author, text=text)
    assert said(rendering.recent(table, {boris.pk})) == [
        ("anna", "hello"),
        ("carl", "hey"),
        ("anna", "go"),
    ]
    assert said(rendering.recent(table.pk, {boris.pk, carl.pk})) == [
        ("anna", "hello"),
        ("anna", "go"),
    ]


def test_a_table_nobody_spoke_at_has_no_lines(table):
    assert rendering.recent(table.pk, set()) == []
