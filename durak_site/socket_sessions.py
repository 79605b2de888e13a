"""Who a socket belongs to: the session cookie's user, resolved once when it connects.

Channels' stack (`channels.auth.AuthMiddlewareStack`) also wraps every message the socket
sends, to save a changed session with an HTTP response; a socket sends no HTTP response,
so for a socket that wrapper is only a check on every frame, and this stack leaves it out.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware


class SocketSessionMiddleware(SessionMiddleware):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def SocketAuthMiddlewareStack(inner: Any) -> Any:
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
