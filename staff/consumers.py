"""The control room's socket: rows of tables as they change, new audit entries, and staff
actions sent as JSON. Only the staff may connect; anyone else is closed with 4403."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from games.live.broadcast import in_language
from games.live.sockets import socket_language
from staff import actions, controlroom, operations
from staff.access import is_staff
from staff.live import STAFF_GROUP
from staff.models import StaffAction

FORBIDDEN = 4403
POLICY_VIOLATION = 1008
FLUSH_AFTER = 0.5
"""Rows of tables that changed are re-rendered at most this often (seconds)."""
MOST_BYTES = 2048


class StaffConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.user = self.scope.get("user")
        if not is_staff(self.user):
            await self.close(code=FORBIDDEN)
            return
        self.language = socket_language(self.scope)
        self.dirty: set[int] = set()
        self.flushing: asyncio.Task[None] | None = None
        await self.accept()
        await self.channel_layer.group_add(STAFF_GROUP, self.channel_name)

    async def disconnect(self, code: int) -> None:
        flushing = getattr(self, "flushing", None)
        if flushing is not None:
            flushing.cancel()
        await self.channel_layer.group_discard(STAFF_GROUP, self.channel_name)

    async def staff_table(self, event: dict[str, Any]) -> None:
        self.dirty.add(int(event["table_id"]))
        if self.flushing is None:
            self.flushing = asyncio.ensure_future(self.flush_soon())

    async def flush_soon(self) -> None:
        await asyncio.sleep(FLUSH_AFTER)
        tables, self.dirty, self.flushing = self.dirty, set(), None
        with translation.override(self.language):
            rows = await database_sync_to_async(controlroom.render_rows)(tables)
        await self.send_json({"rows": rows})

    async def staff_audit(self, event: dict[str, Any]) -> None:
        with translation.override(self.language):
            html = await database_sync_to_async(render_action)(int(event["action_id"]))
        await self.send_json({"audit": html})

    async def layer_resumed(self, event: dict[str, Any]) -> None:
        """Back in the staff's group after a Redis outage: the rows catch up as tables change."""

    async def site_banners(self, event: dict[str, Any]) -> None:
        await self.send_json({"banners": in_language(event["html"], self.language)})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        with translation.override(self.language):
            if text_data is None or len(text_data) > MOST_BYTES:
                await self.close(code=POLICY_VIOLATION)
                return
            try:
                message = json.loads(text_data)
                if not isinstance(message, dict):
                    raise ValueError
            except ValueError:
                await self.answer(False, _("That message is not understood."))
                return
            ok, text = await database_sync_to_async(carry_out)(self.user.pk, message)
            await self.answer(ok, text, message.get("table"))

    async def answer(self, ok: bool, text: str, table: Any = None) -> None:
        await self.send_json({"result": {"ok": ok, "message": text, "table": table}})

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content))


def render_action(action_id: int) -> str:
    action = StaffAction.objects.select_related("staff", "table", "player").get(pk=action_id)
    return render_to_string("staff/fragments/audit_row.html", {"action": action})


def carry_out(user_id: int, message: dict[str, Any]) -> tuple[bool, str]:
    """A staff action on a table from the socket: `{"action": "stop", "table": 5,
    "reason": "..."}` (kick adds "position", a notice sends "text"). Checked against the
    member as they are now: someone no longer staff since connecting is refused."""
    staff = get_user_model().objects.filter(pk=user_id).first()
    if staff is None or not is_staff(staff):
        return False, _("Only the staff may do this.")
    action = actions.TABLE.get(str(message.get("action")))
    table = message.get("table")
    if action is None or not isinstance(table, int) or isinstance(table, bool):
        return False, _("That message is not understood.")
    try:
        return True, action.perform(staff, message, pk=table)
    except operations.StaffError as refusal:
        return False, str(refusal)
