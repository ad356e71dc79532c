"""A ban takes effect mid-game: the banned player's open table socket closes, a move they
still send is refused, and their quick-match ticket leaves the queue."""

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts import services as accounts
from accounts.models import LedgerEntry, User
from catalogue.models import RoomTier
from lobby import matchmaking
from lobby.models import QueueTicket
from mahjong.asgi import application
from mahjong.engine.game import default_action
from mahjong.tables import services
from mahjong.tables.consumers import LOGGED_OUT
from tests.web.tables_support import run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]

WAIT = 20


def socket_of(table, user):
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return WebsocketCommunicator(
        application,
        f"/ws/tables/{table.public_id}/",
        headers=[(b"host", b"testserver"), (b"origin", b"http://testserver"), (b"cookie", cookie)],
    )


def test_a_ban_closes_the_players_table_socket(redis_layer, duel, alice):
    from channels.db import database_sync_to_async

    ws = socket_of(duel, alice)

    async def scenario():
        assert (await ws.connect())[0]
        await ws.receive_from(WAIT)
        await database_sync_to_async(accounts.ban)(alice, "cheating")
        closed = await ws.receive_output(WAIT)
        await ws.disconnect()
        return closed

    assert run(scenario) == {"type": "websocket.close", "code": LOGGED_OUT}


def test_a_move_from_a_player_banned_after_connecting_is_refused(duel, alice, bob):
    hand = duel.current_hand()
    state = hand.game()
    mover = [alice, bob][state.turn]
    action = str(default_action(state, state.turn))
    # an operator unticks "active" in the player's change form (no ban, so the tables
    # stay open): the socket's user object still says is_active=True
    User.objects.filter(pk=mover.pk).update(is_active=False)
    with pytest.raises(services.TableError, match="suspended|封禁"):
        services.act(duel, mover, action, hand.version)
    assert duel.current_hand().version == hand.version


def test_a_banned_player_leaves_the_quick_match_queue(alice, bob):
    tier = RoomTier.objects.get(slug="novice")
    ticket = matchmaking.join(alice, tier)
    accounts.ban(alice, "cheating")
    ticket.refresh_from_db()
    assert ticket.state == QueueTicket.State.CANCELLED
    assert matchmaking.join(bob, tier).state == QueueTicket.State.WAITING  # nobody to pair


def test_a_ban_ends_the_players_hand_as_an_escape_and_closes_the_table(alice, bob, client_of):
    """The opponent is paid the escape penalty at once instead of playing on against the
    banned player's timers (whose seat may never have had a socket to close)."""
    from mahjong.tables.models import Table

    tier = RoomTier.objects.get(slug="novice")
    table = services.open_table(tier.ruleset, [alice, bob], tier=tier, beans_per_point=50)
    before = User.objects.get(pk=bob.pk).beans
    accounts.ban(alice, "cheating")
    table.refresh_from_db()
    hand = table.current_hand()
    assert table.status == Table.Status.FINISHED and hand.result["kind"] == "escape"
    assert User.objects.get(pk=bob.pk).beans > before
    assert LedgerEntry.objects.filter(account=bob, ref=table.public_id).exists()
    page = client_of(bob).get(table.get_absolute_url()).content.decode()
    assert f"已关闭：{alice.display_name} 的账号被封禁。" in page
