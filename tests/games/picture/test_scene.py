from __future__ import annotations

import random
import re

import pytest
from django.conf import settings
from django.utils import translation

from accounts.models import User
from games.live import broadcast, snapshots
from games.models import Game, GameEvent
from games.table import fairness, play, tables
from tests.games.picture.pages import Page
from tests.support.tables import open_table, start_when_due

LOG = '<ol id="log"'
NEWS = '<ol hx-swap-oob="beforeend:#log">'
LANGUAGES = [code for code, _name in settings.LANGUAGES]


def lines(html: str) -> list[str]:
    return re.findall(r"<li>(.*?)</li>", html, flags=re.S)


class Broadcasts:
    """The table pictures sent since the last look, by audience."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.batches: list[list[broadcast.Message]] = []
        self.versions: set[int] = set()
        monkeypatch.setattr(broadcast, "send_all", self.batches.append)
        monkeypatch.setattr(broadcast.listeners, "listening", set)

    def take(self) -> list[tuple[int | None, str, str]]:
        """(seat, language, html) of each table picture sent; a seat's in its language."""
        sent = []
        for batch in self.batches:
            for group, message in batch:
                if message["type"] != "table.html":
                    continue
                seat = re.fullmatch(r"table-\d+-seat-(\d+)", group)
                if message["version"] is not None:
                    self.versions.add(message["version"])
                for language, html in message["html"].items():
                    sent.append((int(seat[1]) if seat else None, language, html))
        self.batches.clear()
        return sent


def snapshot(table_id: int, seat: int | None, language: str) -> str:
    with translation.override(language):
        return snapshots.render(table_id, seat).html


class Pages:
    """Each audience's page, kept from its first frame on as the browser keeps it."""

    def __init__(self) -> None:
        self.pages: dict[tuple[int | None, str], Page] = {}
        self.changes = 0

    def check(self, table_id: int, sent, languages: dict[int, str]) -> int:
        """After the frames sent since the last look, the page of each audience shows what
        a new connection of that audience gets now, and its log ends with the new
        connection's log. Returns how many frames were checked."""
        touched = []
        for seat, language, html in sent:
            language = languages[seat] if language == "*" else language
            whole = '<section id="game"' in html
            if (seat, language) not in self.pages:
                assert whole, "an audience's first frame is the whole picture"
            self.changes += not whole
            self.pages.setdefault((seat, language), Page()).apply(html)
            touched.append((seat, language))
        for seat, language in dict.fromkeys(touched):
            page, fresh = self.pages[seat, language], Page(snapshot(table_id, seat, language))
            assert page.game() == fresh.game(), f"seat {seat} in {language} sees another picture"
            log = fresh.log()
            assert page.log()[len(page.log()) - len(log) :] == log
        return len(sent)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("seats", "seed"), [(2, 11), (3, 22), (4, 33)])
def test_every_broadcast_equals_the_snapshot_of_its_version_for_every_audience(
    seats, seed, anna, boris, frozen_clock, monkeypatch
):
    User.objects.filter(pk=anna.pk).update(language="ru")
    User.objects.filter(pk=boris.pk).update(language="en")
    monkeypatch.setattr(
        fairness.secrets, "token_hex", lambda size: random.Random(seed).randbytes(size).hex()
    )
    sent = Broadcasts(monkeypatch)
    pages = Pages()
    languages = {0: "ru", 1: "en"}
    table = open_table(anna, stake=10, seats=seats)
    checked = pages.check(table.pk, sent.take(), languages)
    tables.join(table.pk, boris)
    for _ in range(seats - 2):
        checked += pages.check(table.pk, sent.take(), languages)
        tables.add_bot(table.pk, anna, "easy")
    checked += pages.check(table.pk, sent.take(), languages)
    game = start_when_due(table, frozen_clock)
    for person in (anna, boris):
        checked += pages.check(table.pk, sent.take(), languages)
        tables.leave(table.pk, person)
    game.refresh_from_db()
    news = 0
    while game.status == Game.Status.RUNNING:
        batch = sent.take()
        news += sum(NEWS in html for _seat, _language, html in batch)
        checked += pages.check(table.pk, batch, languages)
        assert game.deadline_at is not None
        frozen_clock.past_deadline(game)
        play.tick(game.pk)
        game.refresh_from_db()
    checked += pages.check(table.pk, sent.take(), languages)
    every_version = set(GameEvent.objects.filter(game=game).values_list("version", flat=True))
    assert len(sent.versions) > 10 and every_version <= sent.versions | {game.version}
    assert news > 10 and checked >= len(sent.versions) * (len(LANGUAGES) + 2)
    assert pages.changes > checked / 2, "most frames carry only what changed"


@pytest.mark.django_db(transaction=True)
def test_a_seat_sees_its_chips_live_as_it_does_on_reconnect(anna, boris, frozen_clock, monkeypatch):
    sent = Broadcasts(monkeypatch)
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    start_when_due(table, frozen_clock)
    live = {seat: html for seat, _language, html in sent.take() if seat is not None}
    assert 'id="chips-now" data-chips="990"' in live[0]
    assert (
        live[0].partition(NEWS)[0].partition(LOG)[0]
        == snapshot(table.pk, 0, settings.LANGUAGE_CODE).partition(LOG)[0]
    )


def test_a_newcomer_at_a_table_sees_one_line_about_the_last_game_and_its_players_the_result(
    anna, clara, frozen_clock
):
    from lxml import html as lxml_html

    from tests.support.tables import play_out

    table = open_table(anna, stake=0)
    tables.add_bot(table.pk, anna)
    game = play_out(start_when_due(table, frozen_clock), frozen_clock)
    bot = table.seat_set.get(player=None)
    tables.remove_bot(table.pk, anna, bot.position)
    tables.join(table.pk, clara)
    seats = {seat.player_id: seat.position for seat in table.seat_set.all()}

    def shown(seat: int | None) -> lxml_html.HtmlElement:
        return lxml_html.fromstring(snapshot(table.pk, seat, "en"))

    for newcomer in (seats[clara.pk], None):
        page = shown(newcomer)
        assert page.cssselect(".receipt") == [] and page.cssselect(".results") == []
        (line,) = page.cssselect(".last-game")
        assert line.cssselect(f'a[href="/games/{game.pk}/"]')
    assert shown(seats[anna.pk]).cssselect(".results .receipt")
