"""A table socket opens only from this site's own pages: the same Origin rule as Django's
CSRF check, for WebSockets.

Channels' AllowedHostsOriginValidator compares the Origin's host name with ALLOWED_HOSTS
and ignores its scheme and port, so a page at http://127.0.0.1:9999 (any other program
on the player's machine or network) could open a socket with the player's cookies. Here
the Origin must be the request's own scheme, host and port, or one of
CSRF_TRUSTED_ORIGINS (with its `*.` subdomain wildcards), as CsrfViewMiddleware asks of
a form's POST; the Host itself must be one of ALLOWED_HOSTS.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.utils.http import is_same_domain

# A Host header's name and port, the pattern Django's own host validation uses.
_HOST = re.compile(r"^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(?::[0-9]+)?$")


def same_origin_only(app):
    """ASGI middleware: a WebSocket from any other origin is refused at the handshake."""

    async def middleware(scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await app(scope, receive, send)

    return middleware


def origin_allowed(scope) -> bool:
    headers = {name.lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}
    origin, host = headers.get(b"origin"), headers.get(b"host")
    if not origin or not host or not _host_allowed(host):
        return False
    if origin == f"{_scheme(scope, headers)}://{host}":
        return True
    return _trusted(origin)


def _host_allowed(host: str) -> bool:
    found = _HOST.match(host.lower())
    if found is None:
        return False
    name = found.group(1).removesuffix(".")
    patterns = settings.ALLOWED_HOSTS
    return any(pattern == "*" or is_same_domain(name, pattern) for pattern in patterns)


def _scheme(scope, headers: dict) -> str:
    """http or https, as request.is_secure() would say for this connection."""
    if settings.SECURE_PROXY_SSL_HEADER:  # behind our TLS proxy: its word, as for HTTP
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        header = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        forwarded = headers.get(header, "").split(",")[0].strip()
        return "https" if forwarded == secure_value else "http"
    return "https" if scope.get("scheme") in ("wss", "https") else "http"


def _trusted(origin: str) -> bool:
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    parts = urlsplit(origin)
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        wanted = urlsplit(trusted)
        if "*" in wanted.netloc and wanted.scheme == parts.scheme:
            if is_same_domain(parts.netloc, wanted.netloc.replace("*", "", 1)):
                return True
    return False
