from __future__ import annotations

import os

import pytest

from games.deadlines import timing
from games.models import Game
from games.table.committed import GameCommitted


@pytest.fixture
def lines(monkeypatch):
    fresh = timing.Lines()
    monkeypatch.setattr(timing, "lines", fresh)
    yield fresh
    if fresh.fd is not None:
        os.close(fresh.fd)


def test_each_commit_and_each_fired_deadline_is_one_line_of_the_timing_file(
    settings, tmp_path, lines
):
    settings.TIMING_LOG = str(tmp_path / "site.timing")
    timing.log_commit(GameCommitted(game=Game(pk=7, version=3), events=(), at=1700000000.25))
    timing.fired("game", 7, 1700000000.5, 1700000000.75)
    timing.fired("start", 12, 1700000001.0, 1700000001.125)
    assert (tmp_path / "site.timing").read_text().splitlines() == [
        "commit 7 3 1700000000.250000",
        "late game 7 1700000000.500000 1700000000.750000",
        "late start 12 1700000001.000000 1700000001.125000",
    ]


def test_lines_told_by_two_processes_are_appended_not_overwritten(settings, tmp_path, lines):
    settings.TIMING_LOG = str(tmp_path / "site.timing")
    (tmp_path / "site.timing").write_text("commit 1 1 1.000000\n")
    timing.fired("standup", 3, 2.0, 2.5)
    assert (tmp_path / "site.timing").read_text().splitlines() == [
        "commit 1 1 1.000000",
        "late standup 3 2.000000 2.500000",
    ]


def test_without_a_timing_file_nothing_is_written(settings, tmp_path, lines):
    settings.TIMING_LOG = ""
    timing.log_commit(GameCommitted(game=Game(pk=7, version=3), events=(), at=1.0))
    timing.fired("game", 7, 1.0, 2.0)
    assert lines.fd is None
    assert list(tmp_path.iterdir()) == []
