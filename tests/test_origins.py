"""A socket opens only from a page of the site itself: same scheme, host and port."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from durak_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


async def opens(origin: str | None, host: str = "127.0.0.1:8000", **scope: object) -> bool:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    communicator.scope.update(scope)
    connected, _code = await communicator.connect()
    await communicator.disconnect()
    return connected


async def test_a_page_of_the_site_opens_its_socket():
    assert await opens("http://127.0.0.1:8000")
    assert await opens("http://localhost:8000", host="localhost:8000")
    assert await opens("HTTP://LOCALHOST:8000", host="localhost:8000")


async def test_a_page_on_another_port_of_the_same_host_is_refused():
    assert not await opens("http://127.0.0.1:9999")
    assert not await opens("http://127.0.0.1")


async def test_a_page_on_another_scheme_or_host_is_refused():
    assert not await opens("https://127.0.0.1:8000")
    assert not await opens("http://evil.example:8000")
    assert not await opens("http://127.0.0.1:8000.evil.example")
    assert not await opens("null")
    assert not await opens(None)


async def test_a_host_the_site_does_not_serve_is_refused_even_from_its_own_page():
    assert not await opens("http://evil.example:8000", host="evil.example:8000")


async def test_behind_a_tls_proxy_the_https_page_opens_its_socket(settings):
    settings.ALLOWED_HOSTS = ["durak.example"]
    assert await opens("https://durak.example", host="durak.example", scheme="wss")
    assert await opens("https://durak.example:443", host="durak.example", scheme="wss")
    assert not await opens("http://durak.example", host="durak.example", scheme="wss")
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    forwarded = [(b"host", b"durak.example"), (b"x-forwarded-proto", b"https")]
    communicator = WebsocketCommunicator(
        application, "/ws/lobby/", headers=forwarded + [(b"origin", b"https://durak.example")]
    )
    assert (await communicator.connect())[0]
    await communicator.disconnect()


async def test_a_trusted_origin_opens_the_socket(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.durak.example"]
    assert await opens("https://play.durak.example")
