from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation

from games.picture.receipt import receipt
from games.table import tables
from tests.support.tables import open_table, play_out, start_when_due


def test_the_receipt_shows_each_payout_as_the_engine_reckons_it(frozen_clock, anna, boris, clara):
    table = open_table(anna, stake=7, seats=3)
    tables.join(table.pk, boris)
    tables.join(table.pk, clara)
    game = play_out(start_when_due(table, frozen_clock), frozen_clock)
    paid = receipt(game)
    rows = paid["rows"]
    stored = {p.seat: p.payout for p in game.players.all()}
    assert [row["payout"] for row in rows] == [stored[row["player"].seat] for row in rows]
    assert sum(row["payout"] for row in rows) == game.bank == 21
    assert [row["places"][0] for row in rows] == sorted(row["places"][0] for row in rows)
    for row in rows:
        assert row["rounded_down"] + row["leftover"] == row["payout"]
        assert row["rounded_down"] == int(21 * row["each"] / 100)
        assert str(row["rule"]).endswith("(R14)")
    assert str(rows[-1]["rule"]) in (
        "The durak gets nothing (R14)",
        "A draw: places 2–3 share 20% (R14)",
    )
    html = render_to_string("games/fragments/receipt.html", {"receipt": paid})
    assert str(rows[0]["rule"]) in html and "leftover chip" in html
    with translation.override("ru"):
        russian = [str(row["rule"]) for row in rows]
        html = render_to_string("games/fragments/receipt.html", {"receipt": paid})
    assert all("R14" in rule and "place" not in rule.lower() for rule in russian)
    assert russian[0] in html
