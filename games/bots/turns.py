"""Who acts next when bots play a game among themselves (playouts, benchmarks), and the result."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.engine import Action, Game, Phase, split_bank

from .easy import choose_easy
from .knowledge import of_game

Policy = Callable[[Game, int], Action]
"""A player: the action that seat takes in this game now (chosen from its view)."""

STEP = 0.001
"""Seconds between two actions: bots answer at once, well inside every timer."""
MOST_ACTIONS = 400
"""Actions a playout may take: a whole game takes about 60 to 150."""


def easy_player(game: Game, seat: int) -> Action:
    """The easy bot at that seat, knowing what the seat's view shows."""
    return choose_easy(of_game(game, seat), game.legal_actions(seat))


def to_act(game: Game) -> int | None:
    """The seat to ask now: the attacker who must lead, the defender facing unbeaten cards, or
    else the first attacker clockwise from the one who led who has not passed. None when
    everyone waits for the clock."""
    if game.phase == Phase.OVER:
        return None
    if game.phase == Phase.LEAD:
        return game.attacker
    if game.phase == Phase.DEFEND:
        return game.defender
    for step in range(game.players):
        seat = (game.attacker + step) % game.players
        if seat != game.defender and seat not in game.passed and game.legal_actions(seat):
            return seat
    return None


def play_out(
    game: Game, players: Sequence[Policy], now: float = 0.0, most_actions: int = MOST_ACTIONS
) -> float:
    """Play the game to its end, each seat by its policy, or stop after ``most_actions`` (bots
    that always answer alike can pass cards back and forth for ever once the talon is empty);
    the clock runs only when everyone waits. Returns the time of the last step."""
    for _ in range(most_actions):
        if game.phase == Phase.OVER:
            break
        seat = to_act(game)
        if seat is None:
            deadline = game.deadline
            assert deadline is not None
            now = max(now, deadline)
            game.tick(now)
            continue
        now += STEP
        game.apply(seat, players[seat](game, seat), now)
    return now


def share(game: Game, seat: int) -> float:
    """The part of the bank (R14) the game pays that seat: 1 for a 2-player win. A game stopped
    before its end pays as a draw of the seats still in it (``Game.standings``)."""
    bank = 1000
    return split_bank(bank, game.standings(), game.players)[seat] / bank
