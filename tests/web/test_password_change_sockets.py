"""A password change logs out the player's other sessions at once: their open table
sockets close, as on a log-out or a ban, while the session that changed it keeps its own
(issue 30, item 8)."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from mahjong.asgi import application
from mahjong.tables.consumers import LOGGED_OUT
from tests.conftest import PASSWORD
from tests.web.tables_support import run

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 20


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def socket_of(table, client) -> WebsocketCommunicator:
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return WebsocketCommunicator(
        application,
        f"/ws/tables/{table.public_id}/",
        headers=[(b"host", b"testserver"), (b"origin", b"http://testserver"), (b"cookie", cookie)],
    )


def test_a_password_change_closes_the_other_sessions_table_sockets(redis_layer, duel, alice):
    here, other_device = logged_in(alice), logged_in(alice)
    kept, closed = socket_of(duel, here), socket_of(duel, other_device)

    def change_password():
        return here.post(
            reverse("accounts:password_change"),
            {
                "old_password": PASSWORD,
                "new_password1": "another-long-one-9",
                "new_password2": "another-long-one-9",
            },
        ).status_code

    async def scenario():
        for ws in (kept, closed):
            assert (await ws.connect())[0]
            await ws.receive_from(WAIT)
        assert await database_sync_to_async(change_password)() == 302
        other = await closed.receive_output(WAIT)
        still_open = await kept.receive_nothing(0.3)
        await kept.disconnect()
        await closed.disconnect()
        return other, still_open

    other, still_open = run(scenario)
    assert other == {"type": "websocket.close", "code": LOGGED_OUT}
    assert still_open
    assert here.get(reverse("lobby:home")).context["user"] == alice  # still logged in
    assert not other_device.get(reverse("lobby:home")).context["user"].is_authenticated
