"""Sockets open only from the site's own pages.

A browser sends the page's origin with every socket it opens, and the session cookie
with it: a page elsewhere (another site, or another port of this host) must not get a
player's socket. The origin must be the site as the browser reached it (the scheme,
host and port of the request, the host being one of `ALLOWED_HOSTS`) or one of
`CSRF_TRUSTED_ORIGINS`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_parts(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, the port filled in; None for anything else."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def page_scheme(scope: dict[str, Any], headers: dict[bytes, bytes]) -> str:
    """The scheme of the page that opened the socket, trusting a TLS proxy's header
    exactly where Django's requests do (`SECURE_PROXY_SSL_HEADER`)."""
    if scope.get("scheme") == "wss":
        return "https"
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        name, value = proxy
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        if headers.get(header, b"").decode("latin-1").strip().lower() == value.lower():
            return "https"
    return "http"


def same_origin(scope: dict[str, Any]) -> bool:
    headers = dict(scope.get("headers") or [])
    origin = origin_parts(headers.get(b"origin", b"").decode("latin-1"))
    if origin is None:
        return False
    trusted = {origin_parts(url) for url in settings.CSRF_TRUSTED_ORIGINS}
    if origin in trusted:
        return True
    host = headers.get(b"host", b"").decode("latin-1")
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    return origin == origin_parts(f"{page_scheme(scope, headers)}://{host}")


class SameOriginValidator:
    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
