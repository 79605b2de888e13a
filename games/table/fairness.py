"""The provably fair deal, on the site's side (the derivation itself is games.engine.fair).

Before a deal the table holds a fresh server seed and shows only its SHA-256 to everybody;
each seated browser sends a seed of its own while it waits; at the deal the seats' seeds
(a bot's made by the server, a missing one empty) and the game's id are mixed in; after the
game the server seed is revealed with the game.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine import Deal, Rules, deal_salt, fair_deal, seed_commitment
from games.engine import Game as EngineGame
from games.models import Game, Seat, Table

CLIENT_SEED = re.compile(r"[0-9a-f]{1,64}")


class SeedRefused(Exception):
    """A client seed that cannot be used; the text says why."""


def commit(table: Table) -> None:
    """Give the table a server seed for its next deal, unless it already has one (or deals
    a recorded game again)."""
    if table.next_seed or table.practice_of_id is not None:
        return
    table.next_seed = secrets.token_hex(32)
    table.next_seed_hash = seed_commitment(table.next_seed.encode())
    table.save(update_fields=["next_seed", "next_seed_hash"])
    Seat.objects.filter(table=table).update(client_seed="")


def contribute(table_id: int, user: User, seed: str, seed_hash: str) -> None:
    """A seated player's browser adds its seed to the deal committed to ``seed_hash``."""
    if not CLIENT_SEED.fullmatch(seed):
        raise SeedRefused(_("A seed is 1 to 64 lowercase hexadecimal digits."))
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise SeedRefused(_("There is no such table."))
        if not table.next_seed_hash or table.next_seed_hash != seed_hash:
            raise SeedRefused(_("That deal has already been dealt; your seed goes to the next."))
        if not Seat.objects.filter(table=table, player=user).update(client_seed=seed):
            raise SeedRefused(_("You do not sit at this table."))


def take_seeds(table: Table, seats: list[Seat]) -> tuple[str, list[str]]:
    """At the deal: the committed server seed and every seat's seed, used up."""
    commit(table)
    server_seed = table.next_seed
    client_seeds = [
        secrets.token_hex(16) if seat.is_bot else seat.client_seed
        for seat in sorted(seats, key=lambda seat: seat.position)
    ]
    table.next_seed = table.next_seed_hash = ""
    table.save(update_fields=["next_seed", "next_seed_hash"])
    Seat.objects.filter(table=table).update(client_seed="")
    return server_seed, client_seeds


def derive(row: Game, players: int) -> Deal:
    """The deal the seeds make; a practice game's seeds are those of the game it practises."""
    salt = deal_salt(row.practice_of_id or row.pk, row.client_seeds)
    return fair_deal(players, row.seed.encode(), salt)


def dealt(deal: Deal, at: float) -> dict[str, Any]:
    """The deal as it is stored with the game: cards as dealt, and when."""
    return {
        "hands": [[card.code for card in hand] for hand in deal.hands],
        "talon": [card.code for card in deal.talon],
        "at": at,
    }


def stored_deal(row: Game) -> Deal:
    return Deal(row.deal["hands"], row.deal["talon"])


def deal(row: Game, table: Table, seats: list[Seat], now: float) -> EngineGame:
    """Deal the game ``row`` (already saved, so its id is known) and start its engine: the
    fair deal of the committed seeds, or at a practice table the deal it practises."""
    original = table.practice_of
    if original is not None:
        row.seed, row.seed_hash, row.client_seeds = (
            original.seed,
            original.seed_hash,
            original.client_seeds,
        )
        row.practice_of_id = original.practice_of_id or original.pk
        cards = stored_deal(original)
    else:
        server_seed, row.client_seeds = take_seeds(table, seats)
        row.seed, row.seed_hash = server_seed, seed_commitment(server_seed.encode())
        cards = derive(row, len(seats))
    engine = EngineGame.start(cards, Rules(move_time=float(table.move_time)), now=now)
    row.deal = dealt(cards, now)
    row.state = engine.to_dict()
    row.save(update_fields=["seed", "seed_hash", "client_seeds", "practice_of", "deal", "state"])
    return engine


def revealed(row: Game) -> dict[str, Any] | None:
    """What the game page's "verify" recomputes from: only once the game is over."""
    if row.status == Game.Status.RUNNING or not row.deal:
        return None
    return {
        "seed": row.seed,
        "seed_hash": row.seed_hash,
        "client_seeds": row.client_seeds,
        "deal_game": row.practice_of_id or row.pk,
        "hands": row.deal["hands"],
        "talon": row.deal["talon"],
    }
