"""The bank receipt of a finished game: who was paid what, and by which rule of R14."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.functional import lazy

from games.engine import payouts
from games.errors import in_words
from games.models import Game, GamePlayer

words_when_shown = lazy(in_words, str)
"""The engine's words, put in the language of whoever the page is rendered for."""


def receipt(game: Game, players_read: Iterable[GamePlayer] | None = None) -> dict[str, Any]:
    """The bank receipt: each payout as the engine reckons it by R14 (places, share, rule,
    rounding), for the players in place order (read here unless given). The rules' words are
    put in the reader's language when the page is rendered, so one receipt serves every
    audience."""
    if players_read is None:
        players_read = game.players.select_related("player")
    players = {p.seat: p for p in players_read}
    count = len(players)
    by_place: dict[int, list[int]] = {}
    for seat, player in sorted(players.items()):
        by_place.setdefault(player.place or count, []).append(seat)
    groups = [seats for _, seats in sorted(by_place.items())]
    reckoned = payouts(game.bank, groups, count)
    rows = [
        {
            "player": players[seat],
            "places": list(reckoned[seat].places),
            "rule": words_when_shown(reckoned[seat].rule),
            "each": reckoned[seat].share,
            "rounded_down": reckoned[seat].rounded_down,
            "leftover": reckoned[seat].leftover,
            "payout": reckoned[seat].chips,
        }
        for group in groups
        for seat in group
    ]
    return {"game": game, "rows": rows, "bank": game.bank}
