from __future__ import annotations

from django.utils import translation

from games.models import Seat, seat_infos
from games.table import tables
from tests.support.tables import open_table


def test_a_bot_is_named_in_the_language_each_audience_reads(anna):
    table = open_table(anna, stake=0)
    tables.add_bot(table.pk, anna)
    with translation.override("ru"):
        infos = seat_infos(Seat.objects.filter(table=table).order_by("position"))
    with translation.override("en"):
        assert [info.label for info in infos] == ["anna", "Bot 2"]
    with translation.override("ru"):
        assert [info.label for info in infos] == ["anna", "Бот 2"]


def test_a_bot_is_named_in_the_language_asked_for_whatever_language_is_active(anna):
    table = open_table(anna, stake=0)
    tables.add_bot(table.pk, anna)
    infos = seat_infos(Seat.objects.filter(table=table).order_by("position"))
    for active in ("en", "ru"):
        with translation.override(active):
            assert [info.label_in("ru") for info in infos] == ["anna", "Бот 2"]
            assert [info.label_in("en") for info in infos] == ["anna", "Bot 2"]
            assert translation.get_language() == active
