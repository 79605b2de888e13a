"""What the game writer tells the rest of the site."""

from __future__ import annotations

from django.dispatch import Signal

game_finished = Signal()
"""Sent by the writer inside the transaction that ends a game, with ``game``: the row with its
places and payouts written (a stopped game is not finished and sends nothing)."""
