from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User
from games.models import Game

pytestmark = pytest.mark.usefixtures("ledger_audit")


@pytest.mark.django_db
def test_the_demo_gives_anna_finished_games_to_look_back_at_once():
    call_command("load_demo", stdout=StringIO())
    anna = User.objects.get(username="anna")
    games = Game.objects.filter(players__player=anna)
    assert sorted(game.players.count() for game in games) == [2, 3, 4]
    assert all(game.status == Game.Status.FINISHED for game in games)
    call_command("load_demo", stdout=StringIO())
    assert Game.objects.filter(players__player=anna).count() == 3
