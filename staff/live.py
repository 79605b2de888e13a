"""The control room's live updates, and the banners sent to pages already open."""

from __future__ import annotations

from games.live import broadcast
from games.models import Table
from staff import switches

STAFF_GROUP = broadcast.STAFF_GROUP


def audit_added(action_id: int) -> None:
    broadcast.send(STAFF_GROUP, {"type": "staff.audit", "action_id": action_id})


def banners_changed() -> None:
    """Every open page swaps in the new banners: the lobby, each table and the staff."""
    html = broadcast.in_every_language(switches.render_banners)
    groups = [broadcast.LOBBY_GROUP, STAFF_GROUP] + [
        broadcast.public_group(table_id)
        for table_id in Table.objects.exclude(status=Table.Status.CLOSED).values_list(
            "pk", flat=True
        )
    ]
    broadcast.send_all([(group, {"type": "site.banners", "html": html}) for group in groups])
