"""The audit trail: every staff action is written here, in the transaction that makes it."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from accounts.models import User
from games.models import Game, Table
from staff import live
from staff.models import StaffAction


def record(
    staff: User,
    kind: str,
    reason: str,
    *,
    table: Table | None = None,
    game: Game | None = None,
    player: User | None = None,
    **details: Any,
) -> StaffAction:
    action = StaffAction.objects.create(
        staff=staff,
        kind=kind,
        reason=reason,
        table=table,
        game=game,
        player=player,
        details=details,
    )
    transaction.on_commit(partial(live.audit_added, action.pk))
    return action


def recent(limit: int = 20) -> QuerySet[StaffAction]:
    return StaffAction.objects.select_related("staff", "table", "player", "game").order_by(
        "-created_at", "-id"
    )[:limit]
