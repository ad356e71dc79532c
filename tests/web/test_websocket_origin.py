"""A table socket opens only from this site's own origin, scheme and port included, as
Django's CSRF check asks of a POST (issue 30, item 8: http://127.0.0.1:9999 was let in)."""

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from mahjong.asgi import application
from mahjong.websocket_origin import origin_allowed
from tests.web.tables_support import refused_connect, run


def scope(origin, host="127.0.0.1:8000", scheme="ws", **extra):
    headers = [(b"host", host.encode())] if host else []
    headers += [(b"origin", origin.encode())] if origin else []
    headers += [(name.encode(), value.encode()) for name, value in extra.items()]
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize(
    "origin, host, scheme",
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws"),
        ("http://localhost", "localhost", "ws"),
        ("https://localhost", "localhost", "wss"),
        ("http://[::1]:8000", "[::1]:8000", "ws"),
    ],
)
def test_the_pages_own_origin_opens_a_socket(origin, host, scheme):
    assert origin_allowed(scope(origin, host, scheme))


@pytest.mark.parametrize(
    "origin, host, scheme",
    [
        ("http://127.0.0.1:9999", "127.0.0.1:8000", "ws"),  # another port: another program
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "ws"),  # another scheme
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "wss"),  # a plain page on a TLS socket
        ("http://evil.example", "evil.example", "ws"),  # a host not in ALLOWED_HOSTS
        ("null", "127.0.0.1:8000", "ws"),  # a sandboxed frame or a file
        ("", "127.0.0.1:8000", "ws"),  # no Origin at all
        ("http://127.0.0.1:8000", "", "ws"),  # no Host at all
    ],
)
def test_any_other_origin_is_refused(origin, host, scheme):
    assert not origin_allowed(scope(origin, host, scheme))


def test_a_trusted_origin_and_the_tls_proxys_word_count_as_for_csrf(settings):
    settings.ALLOWED_HOSTS = ["mahjong.example.com", ".example.org"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.org"]
    assert origin_allowed(scope("https://play.example.org", "mahjong.example.com"))
    assert not origin_allowed(scope("http://play.example.org", "mahjong.example.com"))
    # behind the TLS proxy daphne's socket is plain ws; the proxy says https
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    behind = {"x-forwarded-proto": "https"}
    assert origin_allowed(scope("https://mahjong.example.com", "mahjong.example.com", **behind))
    assert not origin_allowed(scope("https://mahjong.example.com", "mahjong.example.com"))


@pytest.mark.django_db(transaction=True)
def test_a_socket_from_another_port_of_the_same_host_is_refused(duel, alice):
    client = Client()
    client.force_login(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()

    def socket(origin):
        headers = [(b"host", b"127.0.0.1:8000"), (b"origin", origin), (b"cookie", cookie)]
        return WebsocketCommunicator(application, f"/ws/tables/{duel.public_id}/", headers)

    async def scenario():
        refused = await refused_connect(socket(b"http://127.0.0.1:9999"))
        same = socket(b"http://127.0.0.1:8000")
        opened = await same.connect()
        await same.disconnect()
        return refused, opened

    refused, opened = run(scenario)
    assert refused[0] is False and opened[0] is True
