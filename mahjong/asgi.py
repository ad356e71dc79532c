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
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from mahjong.startup import warm_up  # noqa: E402
from mahjong.tables.routing import websocket_urlpatterns as table_routes  # noqa: E402

WEBSOCKET_ROUTES: list = [*table_routes]

http_app = django_asgi_app
if settings.DEBUG:
    # `make run` has no separate web server for static files; production serves
    # collectstatic output from its proxy and never takes this branch.
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)

application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(WEBSOCKET_ROUTES))),
    }
)

warm_up()  # before the first player, not on their move (mahjong.startup)
