"""What a profile page shows of a player's games: record, rating and charts."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import User
from ratings import charts
from ratings.models import Rating
from ratings.skill import PROVISIONAL_GAMES, Skill
from ratings.statistics import record_of

register = template.Library()


@register.inclusion_tag("ratings/_record.html")
def player_record(player: User, with_balance: bool = False) -> dict[str, Any]:
    rating = Rating.objects.filter(player=player).first()
    skill = Skill(rating.mu, rating.sigma) if rating else Skill.new()
    return {
        "player": player,
        "record": record_of(player),
        "skill": skill,
        "rated_games": rating.games if rating else 0,
        "provisional": (rating.games if rating else 0) < PROVISIONAL_GAMES,
        "rating_chart": charts.chart(charts.rating_series(player)),
        "balance_chart": charts.chart(charts.balance_series(player)) if with_balance else None,
    }
