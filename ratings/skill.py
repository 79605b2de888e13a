"""Skill from finishing order: the Plackett–Luce model of openskill, and how a rating reads.

A game of durak is a free-for-all of 2–4 players: each seat is a team of one, ranked by its
finishing group (players who finish in the same round tie, the durak is last)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
SCALE = 40
"""A shown rating is ``mu`` times this: a new player starts at 1000."""
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @classmethod
    def new(cls) -> Skill:
        return cls(MODEL.mu, MODEL.sigma)

    @property
    def points(self) -> int:
        """The one number a player sees."""
        return round(self.mu * SCALE)

    @property
    def margin(self) -> int:
        """Two standard deviations in points: the true skill lies within about 95% of the time."""
        return round(2 * self.sigma * SCALE)


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The skills after one game in which seat ``i`` finished at rank ``ranks[i]``."""
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
