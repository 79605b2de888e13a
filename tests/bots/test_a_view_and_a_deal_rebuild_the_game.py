"""A seat's view plus a deal of the unseen cards rebuilds the engine game the search plays."""

from __future__ import annotations

import random

from games.bots.knowledge import of_game, read
from games.bots.sampling import World
from games.bots.world import game_of
from tests.bots.positions import random_positions

NOT_IN_A_VIEW = ("seed", "timers", "known", "group_round")


def test_the_true_deal_rebuilds_the_game_as_it_is_but_for_what_no_view_shows() -> None:
    checked = 0
    for seed in range(12):
        for game, seat in random_positions(seed, 2 + seed % 3):
            if random.Random(checked).random() < 0.8:
                checked += 1
                continue
            truth = World(tuple(map(tuple, game.hands)), tuple(game.talon))
            rebuilt = game_of(read(game.view(seat)), truth)
            expected = game.to_dict()
            got = rebuilt.to_dict()
            for key in expected:
                if key not in NOT_IN_A_VIEW:
                    assert got[key] == expected[key], (key, expected)
            for other in range(game.players):
                assert rebuilt.legal_actions(other) == game.legal_actions(other)
                if other != seat:
                    assert got["known"][other] == expected["known"][other]
            assert (rebuilt.deadline is None) == (game.deadline is None)
            checked += 1
    assert checked > 1000


def test_playouts_know_from_the_game_exactly_what_the_seat_reads_in_its_view() -> None:
    for seed in range(12):
        for game, seat in random_positions(seed, 2 + seed % 3):
            assert of_game(game, seat) == read(game.view(seat))
