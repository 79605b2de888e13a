"""A deal nobody chooses alone (R1): the server's secret seed, the players' seeds, the game.

Every card's place in the deck is its HMAC-SHA256 under the server seed, of the message
``durak-deal/1|<game id>|<client seed of seat 0>|...|<card code>``; the deck is the 36 cards
sorted by those 32-byte values. Seat n is dealt ``deck[6n:6n+6]``, the rest is the talon in
order, its last card turned face up. Knowing the seed's SHA-256 in advance, anybody can check
the deal afterwards; nobody who knows only some of the inputs can steer it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from .cards import CARDS, Card
from .deal import HAND_SIZE, Deal

VERSION = "durak-deal/1"


def seed_commitment(server_seed: bytes) -> str:
    """What the server publishes before the deal: the SHA-256 of its seed, in hex."""
    return hashlib.sha256(server_seed).hexdigest()


def deal_salt(game_id: int, client_seeds: Sequence[str]) -> bytes:
    return "|".join([VERSION, str(game_id), *client_seeds]).encode()


def fair_deck(server_seed: bytes, salt: bytes) -> list[Card]:
    """The 36 cards in the order fixed by the seed and the salt (``deal_salt``)."""
    return sorted(
        CARDS, key=lambda card: hmac.digest(server_seed, salt + b"|" + card.code.encode(), "sha256")
    )


def fair_deal(players: int, server_seed: bytes, salt: bytes) -> Deal:
    cards = fair_deck(server_seed, salt)
    cut = HAND_SIZE * players
    return Deal([cards[i : i + HAND_SIZE] for i in range(0, cut, HAND_SIZE)], cards[cut:])
