"""A finished game as one JSON document, format ``durak-game/1`` (described in the README)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import Game
from games.records import signature

FORMAT = "durak-game/1"


class NotExportable(Exception):
    """The game cannot be exported (yet); the text says why."""


def export(row: Game) -> dict[str, Any]:
    if row.status == Game.Status.RUNNING:
        raise NotExportable(_("The game is still running: it can be exported once it is over."))
    if not row.deal:
        raise NotExportable(_("This game was dealt before deals were recorded."))
    players = list(row.players.select_related("player").order_by("seat"))
    events = [{"seq": event.seq, **event.data} for event in row.events.order_by("seq")]
    record = {
        "format": FORMAT,
        "id": row.pk,
        "practice_of": row.practice_of_id,
        "table": {"id": row.table_id, "name": row.table.name, "private": row.table.private},
        "started_at": row.started_at.isoformat(),
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
        "players": [
            {
                "seat": player.seat,
                "name": player.label,
                "bot": player.player_id is None,
                "level": player.bot_level or None,
            }
            for player in players
        ],
        "rules": {**row.state["rules"], "stake": row.stake},
        "seed": row.seed,
        "seed_hash": row.seed_hash,
        "client_seeds": list(row.client_seeds),
        "deal": {**row.deal, "trump": row.deal["talon"][-1][1] if row.deal["talon"] else None},
        "events": events,
        "result": result_of(row, players),
    }
    record["signature"] = signature.of(record)
    return record


def result_of(row: Game, players: list[Any]) -> dict[str, Any]:
    if row.status == Game.Status.ABORTED:
        return {
            "outcome": "aborted",
            "groups": [],
            "durak": None,
            "places": [None] * len(players),
            "payouts": [player.stake for player in players],
        }
    groups: dict[int, list[int]] = {}
    for player in players:
        groups.setdefault(player.place, []).append(player.seat)
    durak = next((player.seat for player in players if player.durak), None)
    stopped = row.events.filter(type="stopped").exists()
    return {
        "outcome": "stopped" if stopped else "finished",
        "groups": [groups[place] for place in sorted(groups)],
        "durak": durak,
        "places": [player.place for player in players],
        "payouts": [player.payout for player in players],
    }
