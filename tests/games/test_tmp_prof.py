import cProfile, pstats, io
import pytest
from games import clock, play, tables, broadcast
from games.models import Game
from tests.games.conftest import open_table, start_when_due

@pytest.mark.django_db(transaction=True)
def test_prof(anna, boris, frozen_clock, monkeypatch):
    monkeypatch.setattr(broadcast, "send_all", lambda m: None)
    monkeypatch.setattr(broadcast.listeners, "listening", set)
    table = open_table(anna, stake=10, seats=4)
    tables.join(table.pk, boris)
    tables.add_bot(table.pk, anna, "easy"); tables.add_bot(table.pk, anna, "easy")
    game = start_when_due(table, frozen_clock)
    game.refresh_from_db()
    prof = cProfile.Profile(); n = 0
    prof.enable()
    while game.status == Game.Status.RUNNING:
        frozen_clock.advance_to(clock.to_seconds(game.deadline_at) + 0.001)
        play.tick(game.pk); n += 1
        game.refresh_from_db()
    prof.disable()
    s = io.StringIO(); st = pstats.Stats(prof, stream=s); st.sort_stats("cumulative").print_stats(40)
    print("TICKS", n); print(s.getvalue()[:9000])
    assert False
