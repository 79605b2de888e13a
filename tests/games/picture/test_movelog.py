"""The move log: one line per event, in the reader's language, cards as people read them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import translation

from games.engine import Deal, Defend, Game, Lead, Take, Transfer
from games.models import SeatInfo
from games.picture import movelog

NAMES = ["Anna", "Boris", "Vera"]


def new(hands: list[str], talon: str = "", trump: str | None = None) -> Game:
    deal = Deal(hands=[hand.split() for hand in hands], talon=talon.split(), trump=trump)
    return Game.start(deal, attacker=0)


def lines(events: Sequence[Mapping[str, Any]], reader: int | None = None) -> list[str | None]:
    return [movelog.describe(event, NAMES, reader) for event in events]


def test_a_transfer_and_a_take_read_as_a_move_log():
    game = new(["6S 6H 9C 9D TC TD", "6C 7S 8D JC QS KS", "6D 7D 8C 8S AS AC"], "QC QD KH")
    events = game.apply(0, Lead("6S"), 1.0)
    events += game.apply(1, Transfer("6C"), 2.0)
    events += game.apply(2, Take(), 3.0)
    events += game.tick(20.0)
    assert lines(events) == [
        "Anna leads 6♠",
        "Boris transfers with 6♣ to Vera",
        "Vera takes",
        "Vera picks up 6♠ 6♣",
        "Anna draws 1 card",
        "Boris draws 1 card",
        "Round 2: Anna attacks Boris, at most 6 cards",
    ]


def test_every_kind_of_engine_event_has_a_line_and_the_ten_is_written_10():
    game = new(["TS TH 8D", "TC 7S 9H"], "KH")
    events = game.apply(0, Lead("TS"), 1.0)
    events += game.apply(1, Transfer("TC"), 2.0)
    events += game.apply(0, Defend("TH", "TS"), 3.0)
    events += game.tick(40.0)
    assert lines(events) == [
        "Anna leads 10♠",
        "Boris transfers with 10♣ to Anna",
        "Anna beats 10♠ with 10♥",
        "Anna takes (out of time)",
        "Anna picks up 10♠ 10♣ 10♥",
        "Boris draws 1 card, including the trump card K♥",
        "Round 2: Boris attacks Anna, at most 4 cards",
    ]
    assert lines(events, reader=1)[5] == "Boris draws 1 card: K♥, including the trump card K♥"
    finish = new(["6S", "7S"], trump="H").apply(0, Lead("6S"), 1.0)
    assert lines(finish)[1] == "Anna has no cards left and finishes"


def test_the_drawing_seat_alone_reads_the_cards_it_drew():
    draw = {"type": "draw", "at": 1.0, "seat": 1, "count": 2, "cards": ["6S", "TD"], "shown": []}
    assert lines([draw], reader=1) == ["Boris draws 2 cards: 6♠ 10♦"]
    assert lines([draw], reader=0) == lines([draw]) == ["Boris draws 2 cards"]


def test_the_log_reads_in_russian_too():
    lead = {"type": "lead", "at": 1.0, "seat": 0, "cards": ["TS"], "defender": 1, "auto": False}
    with translation.override("ru"):
        line = movelog.describe(lead, NAMES, None)
    assert line is not None and "10♠" in line and "Anna" in line and "leads" not in line


def test_an_event_the_log_does_not_know_has_no_line():
    assert movelog.describe({"type": "shuffle"}, NAMES, None) is None


def test_the_lines_a_version_adds_are_appended_to_the_log_escaped():
    game = new(["6S 6H 9C", "6C 7S 8D"], "QC QD KH")
    events = game.apply(0, Lead("6S"), 1.0)
    seats = [
        SeatInfo(0, "<b>anna</b>", False, "", False, False),
        SeatInfo(1, "boris", False, "", False, False),
    ]
    with translation.override("en"):
        appended = movelog.render_log_append([dict(event) for event in events], seats, None)
    assert (
        appended
        == '<ol hx-swap-oob="beforeend:#log"><li>&lt;b&gt;anna&lt;/b&gt; leads 6♠</li></ol>'
    )


def test_a_version_that_adds_no_line_appends_nothing():
    assert movelog.render_log_append([], [], None) == ""
