from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = _("Chat")

    def ready(self) -> None:
        from chat.consumer import ChatPart
        from chat.history import ChatTalk
        from games.live import parts
        from games.records import table_talk

        parts.register(ChatPart)
        table_talk.answer_with(ChatTalk())
