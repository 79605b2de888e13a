"""Paying out the bank by finishing place (R14), with the reckoning behind each payout."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .reasons import Reason, gettext_noop

SHARES = {2: (100, 0), 3: (80, 20, 0), 4: (60, 30, 10, 0)}
"""Percent of the bank for each place, by number of players."""


@dataclass(frozen=True)
class Payout:
    """One seat's chips and how R14 gives them: the places its finishing group occupies, the
    percent of the bank those places are worth together (``group_share``), the seat's part of
    it rounded down, and the leftover chip it may get on top."""

    seat: int
    places: tuple[int, ...]
    """1 for the first place; several when the seat's group finished together."""
    group_share: int
    rounded_down: int
    leftover: int
    rule: Reason
    """The rule that gave this share, in words (with its template and values for translation)."""

    @property
    def share(self) -> float:
        """The seat's percent of the bank: its group's share, split equally."""
        return self.group_share / len(self.places)

    @property
    def chips(self) -> int:
        return self.rounded_down + self.leftover


def payouts(bank: int, groups: Sequence[Sequence[int]], players: int) -> list[Payout]:
    """Each seat's payout, by seat. ``groups``: the finishing groups in order, covering every seat
    (the durak last, alone; in a draw, or a game stopped before its end, the last group has
    several seats). A group of k seats shares the k places it occupies equally; payouts are
    rounded down and the leftover chips go one each to the best-placed seats, in group order
    and ascending seat number."""
    if players not in SHARES:
        raise ValueError(f"a game has 2 to 4 players, not {players}")
    if bank < 0:
        raise ValueError("the bank cannot be negative")
    seats = sorted(seat for group in groups for seat in group)
    if seats != list(range(players)) or not all(groups):
        raise ValueError(f"the groups {groups!r} must cover seats 0..{players - 1} once each")
    shares = SHARES[players]
    reckoned: dict[int, tuple[tuple[int, ...], int, int, Reason]] = {}
    place = 0
    for group in groups:
        places = tuple(range(place + 1, place + len(group) + 1))
        percent = sum(shares[place : place + len(group)])
        rule = _rule(places, percent, last=places[-1] == players)
        for seat in group:
            reckoned[seat] = (places, percent, bank * percent // (100 * len(group)), rule)
        place += len(group)
    leftover = bank - sum(rounded for _, _, rounded, _ in reckoned.values())
    lucky = set([seat for group in groups for seat in sorted(group)][:leftover])
    return [
        Payout(seat, places, percent, rounded, int(seat in lucky), rule)
        for seat, (places, percent, rounded, rule) in sorted(reckoned.items())
    ]


def _rule(places: tuple[int, ...], percent: int, last: bool) -> Reason:
    if len(places) == 1:
        if last:
            return Reason(gettext_noop("The durak gets nothing (R14)"))
        return Reason(
            gettext_noop("Place {place} takes {percent}% (R14)"),
            place=places[0],
            percent=percent,
        )
    if last:
        return Reason(
            gettext_noop("A draw: places {first}–{last} share {percent}% (R14)"),
            first=places[0],
            last=places[-1],
            percent=percent,
        )
    return Reason(
        gettext_noop("Places {first}–{last} finish together and share {percent}% (R14)"),
        first=places[0],
        last=places[-1],
        percent=percent,
    )


def split_bank(bank: int, groups: Sequence[Sequence[int]], players: int) -> list[int]:
    """Chips per seat by R14 (see ``payouts``); always adds up to ``bank``."""
    return [payout.chips for payout in payouts(bank, groups, players)]
