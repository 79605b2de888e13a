from __future__ import annotations

import random

from games.engine import Deal, Defend, Game, Lead, Pass, Rules
from games.models import BOT_DELAY, BotSchedule, table_key


def game_where_a_bot_passed() -> Game:
    """Seat 0 leads 6♠ 6♣, seat 2 passes, the defender beats 6♣ with the trump 6♥: no new
    rank has appeared, so seat 2's pass stands (R10)."""
    deal = Deal(
        hands=[
            ["6S", "6C", "9D", "TD", "JD", "QD"],
            ["7S", "6H", "8D", "9S", "TS", "JS"],
            ["6D", "AC", "AS", "KC", "KS", "QS"],
        ],
        talon=["7C", "8C", "KH"],
    )
    game = Game.start(deal, Rules(), now=0.0, attacker=0)
    game.apply(0, Lead(["6S", "6C"]), 1.0)
    game.apply(2, Pass(), 2.0)
    return game


def test_r10_a_bot_whose_pass_stands_is_not_asked_to_throw_in():
    game = game_where_a_bot_passed()
    schedule = BotSchedule()
    game.apply(1, Defend("6H", "6C"), 3.0)
    assert 2 in game.passed
    schedule.refresh(game, {2}, 3.0, random.Random(1))
    assert 2 not in schedule.due


def test_r10_a_bot_is_asked_again_once_a_new_rank_voids_its_pass():
    game = game_where_a_bot_passed()
    schedule = BotSchedule()
    game.apply(1, Defend("7S", "6S"), 3.0)
    schedule.refresh(game, {2}, 3.0, random.Random(1))
    assert BOT_DELAY[0] <= schedule.due[2] - 3.0 <= BOT_DELAY[1]


def test_a_bot_that_acted_waits_for_the_table_to_change():
    game = game_where_a_bot_passed()
    schedule = BotSchedule()
    schedule.refresh(game, {0}, 2.0, random.Random(1))
    assert 0 in schedule.due
    schedule.record_move(0, table_key(game))
    schedule.refresh(game, {0}, 2.5, random.Random(1))
    assert 0 not in schedule.due


def test_r16_a_bot_with_something_to_do_is_due_one_and_a_half_to_three_seconds_later():
    game = game_where_a_bot_passed()
    delays = []
    for seed in range(200):
        schedule = BotSchedule()
        schedule.refresh(game, {1}, 2.0, random.Random(seed))
        delays.append(schedule.due[1] - 2.0)
    assert BOT_DELAY == (1.5, 3.0)
    assert all(1.5 <= delay <= 3.0 for delay in delays)
    assert min(delays) < 1.6 and max(delays) > 2.9
