"""Balance and rating over time, drawn as SVG on the server."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from django.template.loader import render_to_string
from django.utils import translation
from lxml import etree

from accounts.models import User
from ratings import charts
from ratings.services import rate_unrated
from tests.ratings.conftest import play_game

MakePlayer = Callable[[str], User]
START = datetime(2026, 11, 1, tzinfo=UTC)


def test_a_player_without_games_gets_an_empty_chart(make_player: MakePlayer) -> None:
    anna = make_player("anna")
    assert charts.chart(charts.rating_series(anna)).count == 0
    balance = charts.chart(charts.balance_series(anna))
    assert (balance.count, balance.low, balance.high) == (1, 1000, 1000)


def test_many_points_are_drawn_within_the_box_and_the_latest_are_kept() -> None:
    series = [(START + timedelta(hours=i), (i * 37) % 500) for i in range(1000)]
    drawn = charts.chart(series)
    assert drawn.count == charts.MOST_POINTS
    assert drawn.last == series[-1][0]
    for point in drawn.points.split():
        x, y = map(float, point.split(","))
        assert charts.PAD_LEFT <= x <= charts.WIDTH - charts.PAD_RIGHT
        assert charts.PAD_Y <= y <= charts.HEIGHT - charts.PAD_Y


def test_the_balance_follows_every_transfer_and_the_rating_every_rated_game(
    make_player: MakePlayer,
) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    play_game([anna, boris], [[0], [1]], stake=100)
    play_game([anna, boris], [[1], [0]], stake=10)
    rate_unrated()
    assert [value for _, value in charts.balance_series(anna)] == [1000, 900, 1100, 1090]
    ratings = [value for _, value in charts.rating_series(anna)]
    assert len(ratings) == 2 and ratings[0] > 1000 and ratings[1] < ratings[0]


def test_a_chart_drawn_in_russian_keeps_points_not_commas_in_its_numbers() -> None:
    series = [(START + timedelta(hours=i), value) for i, value in enumerate((1000, 990, 1185))]
    with translation.override("ru"):
        svg = render_to_string(
            "ratings/_chart.html", {"chart": charts.chart(series), "title": "t", "empty": "e"}
        )
    drawn = etree.fromstring(svg[svg.index("<svg") : svg.index("</svg>") + len("</svg>")])
    numbers = [
        value
        for element in drawn.iter()
        for name, value in element.attrib.items()
        if name in {"x", "y", "x1", "y1", "x2", "y2"}
    ]
    assert numbers and all("," not in value for value in numbers)
    line = drawn.find("{*}polyline")
    assert line is not None
    for point in line.get("points", "").split():
        assert len(point.split(",")) == 2
