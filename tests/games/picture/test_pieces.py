"""The pieces of the game section that are written without a template."""

from __future__ import annotations

from django.utils import translation
from lxml import html as lxml_html

from games.engine import Deal, Game
from games.models import SeatInfo
from games.picture import pieces

CONTEXT = {
    "version": 7,
    "phase": "defend",
    "seat": 0,
    "role": "defender",
    "game_id": 12,
    "me_class": 'me role-defender "x"',
    "new_defender": None,
    "seats": "1:5:attacker:1 2:6:attacker:0",
    "deadline_ms": 1_800_000_030_000,
    "kind": "defence",
    "now_ms": 1_800_000_000_000,
    "base": None,
}


def attributes(**changed):
    drawn = pieces.drawn_attributes("game-attrs", {**CONTEXT, **changed}, oob=True)
    return lxml_html.fragment_fromstring(drawn)


def test_the_attributes_piece_says_the_version_the_reader_and_the_deadline():
    element = attributes()
    assert element.get("id") == "game-attrs" and element.get("hx-swap-oob") == "true"
    assert element.get("hidden") is not None
    assert {name: element.get(f"data-{name}") for name in ("version", "seat", "role")} == {
        "version": "7",
        "seat": "0",
        "role": "defender",
    }
    assert element.get("data-me-class") == 'me role-defender "x"'
    assert (
        element.get("data-new-defender") == "" and element.get("data-deadline") == "1800000030000"
    )
    assert element.get("data-base") is None


def test_the_attributes_of_a_change_name_the_version_they_apply_to():
    assert attributes(base=6).get("data-base") == "6"


def test_a_spectators_attributes_name_no_seat_and_no_deadline_when_none_runs():
    element = attributes(seat=None, deadline_ms=None, role="spectator")
    assert element.get("data-seat") == "" and element.get("data-deadline") == ""


def test_the_attributes_outside_a_change_are_not_swapped_in():
    drawn = pieces.drawn_attributes("game-attrs", CONTEXT, oob=False)
    assert "hx-swap-oob" not in drawn


def test_a_swap_puts_its_pieces_where_it_says():
    drawn = pieces.swap("beforebegin", target="hand-7S", pieces=["<i>a</i>", "<i>b</i>"])
    element = lxml_html.fragment_fromstring(drawn)
    assert element.get("hx-swap-oob") == "beforebegin:#hand-7S"
    assert element.get("id") is None
    assert [child.text for child in element] == ["a", "b"]


def test_a_swap_that_deletes_names_the_element_it_deletes():
    element = lxml_html.fragment_fromstring(pieces.swap("delete", id="hand-TH"))
    assert element.get("id") == "hand-TH" and element.get("hx-swap-oob") == "delete"
    assert len(element) == 0


def test_a_swap_escapes_what_it_names():
    drawn = pieces.swap("delete", id='x" onclick="y')
    assert lxml_html.fragment_fromstring(drawn).get("id") == 'x" onclick="y'


DEAL = Deal.shuffled(4, 5)


def section_at_the_deal(seat: int | None = 0) -> pieces.Section:
    game = Game.start(DEAL)
    person = SeatInfo(0, "anna", False, "", False, False)
    bots = [SeatInfo(position, "", True, "easy", False, False) for position in range(1, 4)]
    with translation.override("en"):
        return pieces.section(12, 1, game, [person, *bots], seat, now=0.0, headline=None)


def test_each_other_seat_says_its_number_its_cards_and_its_role_around_its_pieces():
    section = section_at_the_deal()
    for seat in section.seats:
        element = lxml_html.fragment_fromstring(seat.draw("en"))
        position = seat.frame["position"]
        assert element.get("id") == f"seat-{position}"
        assert element.get("data-seat") == str(position) and element.get("data-cards") == "6"
        assert element.get("data-role") == seat.frame["role"]
        assert (element.get("class") or "").startswith(f"seat role-{seat.frame['role']}")
        assert element.text_content().strip().startswith(f"Bot {position + 1}")


def test_the_deck_holds_the_trump_the_talon_and_the_discard():
    section = section_at_the_deal(None)
    element = lxml_html.fragment_fromstring(section.drawn_deck())
    assert element.get("id") == "deck" and element.get("class") == "deck"
    assert [child.get("id") for child in element] == ["stock", "talon", "discard"]
    [trump] = element.cssselect("#trump")
    assert trump.get("data-card") == str(DEAL.trump_card)


def test_r15_the_move_timer_marks_only_the_seat_it_waits_for():
    game = Game.start(DEAL)
    attacker = game.attacker
    for reader in (None, *range(4)):
        person = SeatInfo(0, "anna", False, "", False, False)
        bots = [SeatInfo(position, "", True, "easy", False, False) for position in range(1, 4)]
        with translation.override("en"):
            section = pieces.section(12, 1, game, [person, *bots], reader, now=0.0)
        for seat in section.seats:
            waited = seat.frame["position"] == attacker
            assert seat.frame["waited_on"] is waited
            assert ("waited-on" in seat.frame["seat_class"]) is waited
            status = next(piece for piece in seat.pieces if piece.template == "seat_status")
            assert status.context["timed"] is waited, "the timer runs for the one it waits on"
        if reader is not None:
            assert ("waited-on" in section.attrs["me_class"]) is (reader == attacker)
