"""Rating a finished game: every seat's player or bot level moves by its finishing place."""

from __future__ import annotations

from collections import defaultdict
from statistics import fmean

from django.db import transaction

from games.models import Game, GamePlayer
from ratings.models import Rating, RatingChange
from ratings.skill import Skill, rate


def rating_of(seat: GamePlayer) -> Rating:
    if seat.player_id is not None:
        found, _ = Rating.objects.get_or_create(
            player_id=seat.player_id, defaults=_new_rating_values()
        )
    else:
        found, _ = Rating.objects.get_or_create(
            bot_level=seat.bot_level, player=None, defaults=_new_rating_values()
        )
    return found


def _new_rating_values() -> dict[str, float]:
    skill = Skill.new()
    return {"mu": skill.mu, "sigma": skill.sigma}


@transaction.atomic
def rate_game(game_id: int) -> bool:
    """Rate a finished game once; a stopped (aborted), practice or running game changes no
    rating."""
    return rate_finished(Game.objects.select_for_update().get(pk=game_id))


def rate_finished(game: Game) -> bool:
    """Rate ``game`` (locked by the caller) once, if it is finished. Seats that share a
    finishing place tie. Two bots of one level in a game are rated as two seats from the
    level's rating, and the level takes the mean of their new skills."""
    if game.status != Game.Status.FINISHED or game.rating_changes.exists():
        return False
    if game.practice_of_id is not None:
        # A practice deals a known deal again: every hand is readable from the original.
        return False
    seats = list(game.players.order_by("seat"))
    if any(seat.place is None for seat in seats):
        return False
    ratings = [rating_of(seat) for seat in seats]
    locked = {
        rating.pk: rating
        for rating in Rating.objects.select_for_update()
        .filter(pk__in={r.pk for r in ratings})
        .order_by("pk")
    }
    before = [Skill(locked[r.pk].mu, locked[r.pk].sigma) for r in ratings]
    after = rate(before, [seat.place or 0 for seat in seats])
    RatingChange.objects.bulk_create(
        RatingChange(
            game=game,
            seat=seat.seat,
            rating_id=rating.pk,
            mu_before=old.mu,
            sigma_before=old.sigma,
            mu_after=new.mu,
            sigma_after=new.sigma,
        )
        for seat, rating, old, new in zip(seats, ratings, before, after, strict=True)
    )
    results: dict[int, list[Skill]] = defaultdict(list)
    for rating, new in zip(ratings, after, strict=True):
        results[rating.pk].append(new)
    for pk, skills in results.items():
        rating = locked[pk]
        rating.mu = fmean(skill.mu for skill in skills)
        rating.sigma = fmean(skill.sigma for skill in skills)
        rating.games += 1
        rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
    return True


def rate_unrated() -> int:
    """Rate, in the order they finished, the finished games not rated yet."""
    pending = (
        Game.objects.filter(
            status=Game.Status.FINISHED, practice_of__isnull=True, rating_changes__isnull=True
        )
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )
    return sum(rate_game(pk) for pk in list(pending))


def rate_on_finish(sender: object, game: Game, **kwargs: object) -> None:
    rate_finished(game)
