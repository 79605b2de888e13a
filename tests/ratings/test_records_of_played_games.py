"""Records and ratings of whole games played through the real services by play_bots."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Sum

from accounts import ledger
from accounts.models import Transfer, User
from games.models import Game, GamePlayer
from games.records.botmatch import play_bots
from ratings.models import Rating
from ratings.services import rate_unrated
from ratings.statistics import record_of

MakePlayer = Callable[[str], User]


def test_records_of_bot_games_and_a_game_stopped_by_an_admin_add_up(
    make_player: MakePlayer, ledger_audit: None
) -> None:
    anna = make_player("anna")
    games = play_bots(3, 3, seat=anna, stake=20)
    assert all(game.status == Game.Status.FINISHED for game in games)
    record = record_of(anna)
    seats = GamePlayer.objects.filter(player=anna)
    assert record.played == 3
    assert record.first_places == seats.filter(place=1).count()
    assert record.durak == seats.filter(durak=True).count()
    assert record.net_chips == seats.aggregate(paid=Sum("payout"))["paid"] - 20 * len(seats)
    assert record.net_chips == ledger.balance(anna) - 1000
    assert set(record.average_place) == {3}
    assert rate_unrated() == 0, "each game was rated as it finished"
    assert Rating.objects.get(player=anna).games == 3
    assert Transfer.objects.filter(kind=Transfer.Kind.PAYOUT).exists()
