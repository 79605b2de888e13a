"""Seats round the table, clockwise (R2)."""

from __future__ import annotations

from collections.abc import Sequence

CLOCKWISE = {
    players: [
        tuple((seat + step) % players for step in range(1, players)) for seat in range(players)
    ]
    for players in (2, 3, 4)
}
"""``CLOCKWISE[players][seat]``: the other seats, clockwise from ``seat``."""


def next_seat(seat: int, in_game: Sequence[bool]) -> int:
    """R2: the next seat clockwise after ``seat`` that is still in the game (``seat`` itself if
    nobody else is); ``in_game`` has one flag per seat."""
    for other in CLOCKWISE[len(in_game)][seat]:
        if in_game[other]:
            return other
    return seat
