from __future__ import annotations

import collections
import functools
import time

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from accounts.services import create_player
from games import (
    broadcast,
    clock,
    game_rows,
    listeners,
    pieces,
    play,
    scene,
    scheduler,
    tables,
)
from games.models import Game
from tests.games.conftest import open_table

spent = collections.Counter()
calls = collections.Counter()


def timed(owner, name, label=None):
    f = getattr(owner, name)
    label = label or f"{getattr(owner, '__name__', owner)}.{name}"

    @functools.wraps(f)
    def w(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            spent[label] += time.perf_counter() - t
            calls[label] += 1

    setattr(owner, name, w)


@pytest.mark.django_db(transaction=True)
def test_timing(frozen_clock, settings):
    settings.DEBUG = False
    layer = get_channel_layer()
    for i in range(8):
        host = create_player(f"p{i}", "a-long-enough-password-42")
        table = open_table(host, stake=0, seats=4)
        for _ in range(3):
            tables.add_bot(table.pk, host, "easy")
    frozen_clock.advance(tables.START_DELAY + 0.01)
    scheduler.sweep()
    gs = list(Game.objects.filter(status=Game.Status.RUNNING))

    async def listen():
        for g in gs:
            for grp in (
                broadcast.public_group(g.table_id),
                broadcast.seat_group(g.table_id, 0),
                broadcast.spectators_group(g.table_id, "en"),
                broadcast.spectators_group(g.table_id, "ru"),
            ):
                ch = await layer.new_channel()
                await layer.group_add(grp, ch)

    async_to_sync(listen)()
    for g in gs:
        tables.leave(g.table_id, g.table.seat_set.get(position=0).player)
    for owner, name in [
        (play, "load"),
        (play, "tick"),
        (broadcast, "game_changed"),
        (broadcast, "send_all"),
        (broadcast, "scene_messages"),
        (scene, "of_game"),
        (scene, "render_changes"),
        (scene, "section"),
        (scene, "earlier_section"),
        (pieces.Section, "changes_since"),
        (pieces.Section, "hand_changes"),
        (pieces.Section, "table_changes"),
        (scene, "render_news"),
        (game_rows, "fingerprint"),
        (game_rows, "save_version"),
        (game_rows, "append_events"),
        (game_rows, "claim_earliest"),
        (game_rows, "lock_at_version"),
        (listeners, "listening"),
        (play, "bot_move"),
        (play, "save"),
        (play, "record"),
        (pieces, "drawn_piece"),
        (pieces.Piece, "draw"),
    ]:
        timed(owner, name)
    fired = 0
    t0 = time.process_time()
    for _ in range(400):
        nxt = (
            Game.objects.filter(status=Game.Status.RUNNING)
            .order_by("deadline_at")
            .values_list("deadline_at", flat=True)
            .first()
        )
        if nxt is None:
            break
        frozen_clock.advance_to(clock.to_seconds(nxt) + 0.001)
        fired += scheduler.fire_due_games(1.0)

        async def drain():
            for name in list(layer.channels):
                q = layer.channels[name]
                while not q.empty():
                    q.get_nowait()

        async_to_sync(drain)()
    total = time.process_time() - t0
    print(f"\nFIRED {fired} total {1000 * total / fired:.2f} ms/action")
    for k, v in spent.most_common():
        print(f"  {k:40s} {1000 * v / fired:7.3f} ms/action  calls/action {calls[k] / fired:5.1f}")
