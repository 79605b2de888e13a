"""Bots choose only legal actions, and raise nothing, in any position a game can reach: 60 random
games make some 25,000 positions for the easy bot."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import choose
from tests.bots.positions import is_legal, random_positions


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 4))
def test_the_easy_bot_chooses_a_legal_action_in_every_position_of_a_random_game(
    seed: int, players: int
) -> None:
    rng = random.Random(seed)
    for game, seat in random_positions(seed, players):
        action = choose(game.view(seat), game.legal_actions(seat), rng, "easy")
        assert is_legal(game, seat, action), (action, game.to_dict())


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 4))
def test_the_strong_bot_chooses_a_legal_action_in_positions_of_a_random_game(
    seed: int, players: int
) -> None:
    rng = random.Random(seed)
    for number, (game, seat) in enumerate(random_positions(seed, players)):
        if number % 9:
            continue
        action = choose(game.view(seat), game.legal_actions(seat), rng, "strong", playouts=2)
        assert is_legal(game, seat, action), (action, game.to_dict())
