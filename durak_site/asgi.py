"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from durak_site.origins import SameOriginValidator  # noqa: E402
from durak_site.routing import websocket_urlpatterns  # noqa: E402
from durak_site.serving import tune_interpreter  # noqa: E402
from durak_site.socket_sessions import SocketAuthMiddlewareStack  # noqa: E402
from games.deadlines import scheduler  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            SocketAuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
scheduler.start_with_server()
tune_interpreter()
