from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client

from durak_site.socket_sessions import SocketAuthMiddlewareStack
from tests.support.players import create_player

pytestmark = pytest.mark.django_db(transaction=True)


class Inner:
    """A socket application that remembers whom it was given and how it may send."""

    def __init__(self) -> None:
        self.user: Any = None
        self.send: Any = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.user = scope["user"]
        self.send = send


async def server_send(message: dict[str, Any]) -> None:
    """The server's own way to send."""


def socket_scope(cookie: str) -> dict[str, Any]:
    return {"type": "websocket", "path": "/ws/table/1/", "headers": [(b"cookie", cookie.encode())]}


def signed_in_session(user: Any) -> str:
    """The session key of a browser the user signed in with."""
    browser = Client()
    browser.force_login(user)
    return browser.cookies[settings.SESSION_COOKIE_NAME].value


async def test_a_socket_belongs_to_the_user_its_session_cookie_names() -> None:
    anna = await database_sync_to_async(create_player)("anna", "anna-plays-durak")
    key = await database_sync_to_async(signed_in_session)(anna)
    inner = Inner()
    await SocketAuthMiddlewareStack(inner)(
        socket_scope(f"{settings.SESSION_COOKIE_NAME}={key}"), None, server_send
    )
    assert await database_sync_to_async(lambda: inner.user.pk)() == anna.pk


async def test_a_socket_without_a_session_is_anonymous() -> None:
    inner = Inner()
    await SocketAuthMiddlewareStack(inner)(socket_scope("django_language=ru"), None, server_send)
    assert not await database_sync_to_async(lambda: inner.user.is_authenticated)()


async def test_a_socket_sends_its_frames_straight_to_the_server() -> None:
    inner = Inner()
    await SocketAuthMiddlewareStack(inner)(socket_scope("django_language=ru"), None, server_send)
    assert inner.send is server_send
