"""A stand-in for the Redis a writer's thread publishes to (`games.live.blocking`): what
went out in each trip, in order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from games.live import broadcast


class Trips:
    def __init__(self) -> None:
        self.trips: list[list[tuple[str, Mapping[str, Any]]]] = []

    def group_channel(self, group: str) -> str:
        return group

    def members_of(self, groups: Iterable[str]) -> set[str]:
        return set(groups)

    def publish(self, messages: Iterable[tuple[str, Mapping[str, Any]]]) -> None:
        self.trips.append(list(messages))

    def types(self) -> list[list[str]]:
        """The type of each message, trip by trip."""
        return [[message["type"] for _, message in trip] for trip in self.trips]


def recording_trips(monkeypatch: pytest.MonkeyPatch) -> Trips:
    """From now on in this test, what writers' threads send is recorded, not published."""
    trips = Trips()
    monkeypatch.setattr(broadcast.blocking, "of", lambda layer: trips)
    return trips
