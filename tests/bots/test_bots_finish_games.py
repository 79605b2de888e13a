"""Bots play whole games among themselves, in the order the playouts and the benchmark use."""

from __future__ import annotations

import random

import pytest

from games.bots import Action, choose
from games.bots.turns import easy_player, play_out, share, to_act
from games.engine import Deal, Game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_game_among_easy_bots_ends_and_pays_out_the_whole_bank(players: int) -> None:
    for seed in range(30):
        game = Game.start(Deal.shuffled(players, seed))
        play_out(game, [easy_player] * players)
        assert game.phase == "over" and to_act(game) is None
        assert sum(share(game, seat) for seat in range(players)) == pytest.approx(1.0)


def test_a_strong_bot_finishes_a_game_against_easy_bots() -> None:
    rng = random.Random(3)

    def strong(game: Game, seat: int) -> Action:
        return choose(game.view(seat), game.legal_actions(seat), rng, "strong", budget=0.005)

    game = Game.start(Deal.shuffled(3, 3))
    play_out(game, [strong, easy_player, easy_player])
    assert game.phase == "over"


def test_the_seat_asked_is_the_one_the_game_waits_on() -> None:
    game = Game.start(Deal.shuffled(3, 1))
    assert to_act(game) == game.attacker
    game.apply(game.attacker, game.legal_actions(game.attacker)[0], 1.0)
    assert to_act(game) == game.defender
