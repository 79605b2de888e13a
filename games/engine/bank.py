"""Paying out the bank by finishing place (R14)."""

from __future__ import annotations

from collections.abc import Sequence

SHARES = {2: (100, 0), 3: (80, 20, 0), 4: (60, 30, 10, 0)}
"""Percent of the bank for each place, by number of players."""


def split_bank(bank: int, groups: Sequence[Sequence[int]], players: int) -> list[int]:
    """Chips per seat. ``groups``: the finishing groups in order, covering every seat (the durak
    last, alone; in a draw the last group has several seats). A group of k seats shares the
    k places it occupies equally; payouts are rounded down and the leftover chips go one each
    to the best-placed seats, in group order and ascending seat number."""
    if players not in SHARES:
        raise ValueError(f"a game has 2 to 4 players, not {players}")
    if bank < 0:
        raise ValueError("the bank cannot be negative")
    seats = sorted(seat for group in groups for seat in group)
    if seats != list(range(players)) or not all(groups):
        raise ValueError(f"the groups {groups!r} must cover seats 0..{players - 1} once each")
    payouts = [0] * players
    shares = SHARES[players]
    place = 0
    for group in groups:
        percent = sum(shares[place : place + len(group)])
        for seat in group:
            payouts[seat] = bank * percent // (100 * len(group))
        place += len(group)
    leftover = bank - sum(payouts)
    in_order = [seat for group in groups for seat in sorted(group)]
    for seat in in_order[:leftover]:
        payouts[seat] += 1
    return payouts
