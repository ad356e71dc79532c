"""The client's address, as our own proxies saw it.

Each proxy in front of daphne appends the address it was connected from to
X-Forwarded-For (nginx's `$proxy_add_x_forwarded_for`); whatever stands to the left of
those entries was written by the client and proves nothing. So the address is read from
the right, TRUSTED_PROXY_HOPS entries in, and never from the left as daphne's
`--proxy-headers` does (a forged chain then gave a fresh address per request: no log-in
lock-out, no sign-up limit). With no hops configured the socket's peer is the client.

One rule for both doors: the middleware rewrites REMOTE_ADDR for every HTTP request
(under daphne and the test client alike), and `for_websockets` rewrites the WebSocket
scope's "client" the same way.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def from_forwarded(peer: str, forwarded_for: list[str], hops: int) -> str:
    """The address `hops` trusted proxies recorded, or the peer if the chain is too short.

    `forwarded_for` is every X-Forwarded-For header's value, in the order received. A chain
    shorter than the configured hops did not come through our proxies, and an entry that is
    not an address is not one a proxy wrote: both fall back to the peer, which only ever
    puts more requests under one address's limits, never fewer.
    """
    if hops == 0:
        return peer
    chain = [entry.strip() for value in forwarded_for for entry in value.split(",")]
    if len(chain) < hops:
        return peer
    try:
        return str(ipaddress.ip_address(chain[-hops]))
    except ValueError:
        return peer


class ClientAddressMiddleware:
    """REMOTE_ADDR becomes the client's address before any view or limit reads it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        header = request.META.get("HTTP_X_FORWARDED_FOR")
        request.META["REMOTE_ADDR"] = from_forwarded(
            request.META.get("REMOTE_ADDR", ""),
            [header] if header is not None else [],
            settings.TRUSTED_PROXY_HOPS,
        )
        return self.get_response(request)


def for_websockets(app):
    """ASGI middleware: the WebSocket scope's client address by the same rule."""

    async def middleware(scope, receive, send):
        if scope["type"] == "websocket":
            peer_host, peer_port = scope.get("client") or ("", 0)
            forwarded = [
                value.decode("latin-1")
                for name, value in scope.get("headers", [])
                if name.lower() == b"x-forwarded-for"
            ]
            host = from_forwarded(peer_host, forwarded, settings.TRUSTED_PROXY_HOPS)
            # The port belongs to the peer; a forwarded address comes without one.
            scope = {**scope, "client": (host, peer_port if host == peer_host else 0)}
        return await app(scope, receive, send)

    return middleware
