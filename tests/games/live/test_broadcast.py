"""What a writer's thread sends while `broadcast.gathered` goes out at the end, together and
in order."""

from __future__ import annotations

import pytest

from games.live import broadcast
from tests.support.trips import Trips, recording_trips


@pytest.fixture
def redis(monkeypatch) -> Trips:
    return recording_trips(monkeypatch)


def sent(redis: Trips) -> list[list[tuple[str, int]]]:
    return [[(channel, message["n"]) for channel, message in trip] for trip in redis.trips]


def test_what_is_sent_while_gathered_goes_in_one_trip_in_the_order_sent(redis):
    with broadcast.gathered():
        broadcast.send_all([("table-1-seat-0", {"n": 1}), ("table-1-spectators-en", {"n": 2})])
        broadcast.send("schedulers", {"n": 3})
        broadcast.reply("socket-a", {"n": 4})
        assert sent(redis) == []
    assert sent(redis) == [
        [("table-1-seat-0", 1), ("table-1-spectators-en", 2), ("schedulers", 3), ("socket-a", 4)]
    ]


def test_a_gathering_inside_another_goes_out_with_the_outer_one(redis):
    with broadcast.gathered():
        broadcast.send("table-1", {"n": 1})
        with broadcast.gathered():
            broadcast.send("table-2", {"n": 2})
        assert sent(redis) == []
        broadcast.send("table-3", {"n": 3})
    assert sent(redis) == [[("table-1", 1), ("table-2", 2), ("table-3", 3)]]


def test_what_was_gathered_before_a_failure_is_still_sent_and_nothing_after_is_held(redis):
    with pytest.raises(RuntimeError), broadcast.gathered():
        broadcast.send("table-1", {"n": 1})
        raise RuntimeError("the writer failed after its commit")
    broadcast.send("table-2", {"n": 2})
    assert sent(redis) == [[("table-1", 1)], [("table-2", 2)]]


def test_a_gathering_with_nothing_sent_makes_no_trip(redis):
    with broadcast.gathered():
        pass
    assert sent(redis) == []
