"""ASGI entry point for daphne: HTTP and the live tables' WebSockets.

The Django app is built before anything that imports models (consumers), as Channels
requires; the tables app adds its routes to WEBSOCKET_ROUTES.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from mahjong import client_address, websocket_origin  # noqa: E402
from mahjong.startup import warm_up  # noqa: E402
from mahjong.tables import broadcast  # noqa: E402
from mahjong.tables.routing import websocket_urlpatterns as table_routes  # noqa: E402

WEBSOCKET_ROUTES: list = [*table_routes]

# served_by: the tables' sends from synchronous code go to the loop that serves the process
application = broadcast.served_by(
    ProtocolTypeRouter(
        {
            # static files: whitenoise (settings.MIDDLEWARE), with DEBUG on or off
            "http": django_asgi_app,
            "websocket": client_address.for_websockets(
                websocket_origin.same_origin_only(AuthMiddlewareStack(URLRouter(WEBSOCKET_ROUTES)))
            ),
        }
    )
)

warm_up()  # before the first player, not on their move (mahjong.startup)
