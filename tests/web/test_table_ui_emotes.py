"""Preset emotes: only a known id travels, rate-limited, shown to the other seat over the
table's WebSocket unless that player muted emotes."""

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts import services as services_accounts
from accounts.models import User
from mahjong.asgi import application
from tests.web.tables_support import run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]


def socket_of(table, user):
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    return WebsocketCommunicator(
        application,
        f"/ws/tables/{table.public_id}/",
        headers=[
            (b"host", b"testserver"),
            (b"origin", b"http://testserver"),
            (b"cookie", cookie.encode()),
        ],
    )


def url(table):
    return f"{table.get_absolute_url()}emote/"


def received_after(table, sender, watchers, emote):
    """Connect the watchers, let `sender` post `emote`; what each watcher got next (or None)."""
    sockets = [socket_of(table, w) for w in watchers]
    client = Client()
    client.force_login(sender)

    async def scenario():
        for s in sockets:
            assert (await s.connect())[0]
            await s.receive_from(5)  # the snapshot
        from channels.db import database_sync_to_async

        status = await database_sync_to_async(
            lambda: client.post(url(table), {"emote": emote}).status_code
        )()
        got = []
        for s in sockets:
            quiet = await s.receive_nothing(timeout=1)
            got.append(None if quiet else await s.receive_from(1))
            await s.disconnect()
        return status, got

    return run(scenario)


def test_the_other_seat_sees_the_emote_and_the_senders_socket_gets_nothing_back(
    redis_layer, duel, alice, bob
):
    status, (to_bob, to_alice) = received_after(duel, alice, [bob, alice], "nice")
    assert status == 200  # the sender's own "You: …" is the post's answer (next test)
    assert to_bob is not None and 'id="mj-emote"' in to_bob and 'data-emote="nice"' in to_bob
    assert "好牌" in to_bob
    assert to_alice is None


def test_a_player_who_muted_emotes_gets_none(redis_layer, duel, alice, bob):
    User.objects.filter(pk=bob.pk).update(emotes_muted=True)
    status, (to_bob,) = received_after(duel, alice, [bob], "hello")
    assert status == 200 and to_bob is None


def test_a_muted_player_sends_no_emote_and_is_told_why(redis_layer, duel, alice, bob):
    """An operator's mute silenced the nickname only: a muted player's 👋 still reached
    the opponent."""
    services_accounts.mute(alice, hours=2)
    status, (to_bob,) = received_after(duel, alice, [bob], "hello")
    assert status == 403 and to_bob is None
    c = Client()
    c.force_login(alice)
    html = c.post(url(duel), {"emote": "hello"}).content.decode()
    assert 'id="mj-notice"' in html and "禁言" in html


def test_only_preset_ids_are_accepted(redis_layer, duel, alice, bob):
    status, (to_bob,) = received_after(duel, alice, [bob], "<b>free text</b>")
    assert status == 400 and to_bob is None


def test_the_sender_is_shown_what_went(duel, alice):
    """Before, the popover closed and nothing on the sender's page said the emote was sent."""
    c = Client()
    c.force_login(alice)
    reply = c.post(url(duel), {"emote": "nice"})
    html = reply.content.decode()
    assert reply.status_code == 200 and 'id="mj-emote"' in html and 'hx-swap-oob="true"' in html
    assert 'data-emote="nice" data-own="1"' in html and "你：" in html and "好牌" in html


def test_emotes_are_rate_limited_and_only_seated_players_may_send(duel, alice, outsider):
    c = Client()
    c.force_login(alice)
    assert c.post(url(duel), {"emote": "hello"}).status_code == 200
    refused = c.post(url(duel), {"emote": "thanks"})
    assert refused.status_code == 429  # and says why, as the table's notice (table.js swaps it)
    assert 'id="mj-notice"' in refused.content.decode() and "几秒" in refused.content.decode()
    assert c.get(url(duel)).status_code == 405
    other = Client()
    other.force_login(outsider)
    assert other.post(url(duel), {"emote": "hello"}).status_code == 403
