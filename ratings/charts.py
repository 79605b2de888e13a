"""Line charts drawn on the server as SVG: a player's balance and rating over time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from accounts import ledger
from accounts.models import User
from ratings.models import RatingChange
from ratings.skill import Skill

WIDTH, HEIGHT = 600, 200
PAD_LEFT, PAD_RIGHT, PAD_Y = 64, 12, 16
MOST_POINTS = 300


@dataclass(frozen=True)
class Chart:
    """What the template draws: ``path`` is the polyline's points in the viewBox."""

    points: str
    low: int
    high: int
    low_y: float
    high_y: float
    first: datetime | None
    last: datetime | None
    count: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = PAD_LEFT


def chart(series: Sequence[tuple[datetime, int]]) -> Chart:
    """Evenly spaced along x by order (games and transfers are steps, not a clock); y spans the
    series' range. An empty series draws nothing."""
    series = list(series)[-MOST_POINTS:]
    if not series:
        return Chart("", 0, 0, 0, 0, None, None, 0)
    values = [value for _, value in series]
    low, high = min(values), max(values)
    span = (high - low) or 1
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - 2 * PAD_Y
    step = inner_w / max(len(series) - 1, 1)

    def y(value: int) -> float:
        return round(PAD_Y + inner_h * (1 - (value - low) / span), 1)

    points = " ".join(
        f"{round(PAD_LEFT + index * step, 1)},{y(value)}" for index, value in enumerate(values)
    )
    return Chart(points, low, high, y(low), y(high), series[0][0], series[-1][0], len(series))


def balance_series(user: User) -> list[tuple[datetime, int]]:
    """The wallet's balance after each of its transfers, oldest first."""
    moves = ledger.history(user).order_by("created_at", "id").values_list("created_at", "change")
    balance, series = 0, []
    for moment, change in moves:
        balance += change
        series.append((moment, balance))
    return series


def rating_series(user: User) -> list[tuple[datetime, int]]:
    changes = RatingChange.objects.filter(rating__player=user).order_by("created_at", "id")
    return [
        (change.created_at, Skill(change.mu_after, change.sigma_after).points) for change in changes
    ]
