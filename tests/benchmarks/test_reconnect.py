"""The reconnect benchmark plays a table into its game and times what a spectator's
reconnect computes."""

from __future__ import annotations

import pytest

from benchmarks import reconnect
from games.live import snapshots
from games.models import Game

pytestmark = pytest.mark.django_db


def test_the_reconnect_benchmark_plays_its_table_to_the_versions_asked():
    table_id = reconnect.played_table(versions=12)
    game = Game.objects.get(table_id=table_id)
    assert game.status == Game.Status.RUNNING and game.version == 12
    assert snapshots.render(table_id, None).version == 12


def test_the_reconnect_benchmark_times_each_part_of_a_spectators_reconnect():
    table_id = reconnect.played_table(versions=6)
    figures = reconnect.measure(table_id, calls=2, repeat=1)
    assert set(figures) == {"access", "snapshot", "chat lines"}
    assert all(micros > 0 for micros in figures.values())
