"""The pictures benchmark draws what a writer draws after every commit, and counts it."""

from __future__ import annotations

from benchmarks import pictures
from games.picture import pieces


def test_the_pictures_benchmark_times_every_version_of_its_games():
    versions, seconds = pictures.play(seed=3)
    assert versions > 10 and seconds > 0


def test_the_pictures_benchmark_counts_the_pieces_drawn_anew_and_puts_the_drawing_back():
    drawn = pieces.draw_anew
    micros, counted, versions = pictures.measure(games=2, repeat=1)
    assert micros > 0 and versions > 10
    assert counted["hand_card"] > 0 and counted["pair"] > 0
    assert pieces.draw_anew is drawn
