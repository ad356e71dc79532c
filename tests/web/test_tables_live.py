"""The table's WebSocket (Channels' WebsocketCommunicator through the real ASGI app: origin
check, session auth, routing) on a real Redis channel layer, and a real Celery worker
playing timers, auto-play and a bot to the end of a hand."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from catalogue.models import Ruleset
from mahjong.asgi import application
from mahjong.engine.game import default_action
from mahjong.tables import services
from mahjong.tables.consumers import TableConsumer, WatchConsumer
from mahjong.tables.models import Event, Hand, Seat
from tests.web.tables_support import run, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]


def headers_for(user, origin="http://testserver"):
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    return [(b"host", b"testserver"), (b"origin", origin.encode()), (b"cookie", cookie.encode())]


def communicator(table, user, **kw):
    return WebsocketCommunicator(
        application, f"/ws/tables/{table.public_id}/", headers=headers_for(user, **kw)
    )


def test_both_players_get_their_own_snapshot_then_a_push_after_a_move(
    redis_layer, duel, alice, bob
):
    hand = duel.current_hand()
    state = hand.game()
    mover_seat = state.turn
    action = str(default_action(state, mover_seat))
    a, b = communicator(duel, alice), communicator(duel, bob)

    async def scenario():
        assert (await a.connect())[0] and (await b.connect())[0]
        snap_a, snap_b = await a.receive_from(5), await b.receive_from(5)
        mover = a if mover_seat == 0 else b
        await mover.send_to(json.dumps({"action": action, "version": 1}))
        push_a, push_b = await a.receive_from(5), await b.receive_from(5)
        # one push each: the mover's socket skips the hint of its own move
        assert await a.receive_nothing(0.5) and await b.receive_nothing(0.1)
        await a.disconnect()
        await b.disconnect()
        return snap_a, snap_b, push_a, push_b

    snap_a, snap_b, push_a, push_b = run(scenario)
    assert 'id="mj-hand"' in snap_a and 'hx-swap-oob="true"' in snap_a
    assert 'data-version="1"' in snap_a and 'data-version="2"' in push_a
    assert 'data-version="2"' in push_b
    assert duel.current_hand().version == 2
    # each sees their own tiles: the two snapshots show different hands
    assert snap_a.count("data-tile=") == len(state.seat(0).hand)
    assert snap_b.count("data-tile=") == len(state.seat(1).hand)
    seat = Seat.objects.get(table=duel, index=0)
    assert seat.connections == 0 and seat.disconnected_at is not None


@pytest.mark.parametrize(
    "message",
    [
        "not json",
        json.dumps(["discard 1m"]),
        json.dumps({"act": "pass"}),
        "x" * 5000,
        json.dumps({"action": "launch missiles", "version": 1}),
        json.dumps({"action": "pass", "version": 0}),
    ],
)
def test_malformed_oversized_or_unknown_messages_get_an_error_and_change_nothing(
    redis_layer, duel, alice, bob, message
):
    hand = duel.current_hand()
    mover = [alice, bob][hand.game().turn]
    ws = communicator(duel, mover)

    async def scenario():
        await ws.connect()
        await ws.receive_from(5)
        await ws.send_to(message)
        reply = await ws.receive_from(5)
        await ws.disconnect()
        return reply

    reply = run(scenario)
    assert 'id="mj-notice"' in reply and "flash error" in reply
    assert duel.current_hand().version == 1
    assert not Event.objects.filter(hand=hand, kind="action").exists()


def test_an_outsider_or_a_foreign_origin_cannot_connect(redis_layer, duel, outsider, alice):
    async def connects(ws):
        ok, _code = await ws.connect()
        await ws.disconnect()
        return ok

    assert not run(connects, communicator(duel, outsider))
    assert not run(connects, communicator(duel, alice, origin="https://evil.example"))


@pytest.fixture
def fast_rules(builtin):
    return Ruleset.objects.create(
        slug="classic-fast",
        engine_slug="classic",
        name="快速",
        overrides={"timers": {"decision": 3, "locked_delay": 0.1}},
    )


def test_a_real_worker_plays_timeouts_auto_play_and_the_bot_to_the_end(
    celery_worker, fast_rules, alice
):
    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    table = services.open_table(fast_rules, [alice, bot], bot_level="random")
    ws = communicator(table, alice)

    async def watch():
        await ws.connect()
        pushes = [await ws.receive_from(5)]
        while "data-outcome=" not in pushes[-1]:
            pushes.append(await ws.receive_from(20))
        await ws.disconnect()
        return pushes

    pushes = run(watch)
    hand = wait_until(lambda: (h := table.current_hand()).ended_at and h)
    bys = list(Event.objects.filter(hand=hand, kind="action").values_list("data__by", flat=True))
    assert "bot" in bys and bys.count("timeout") >= 1
    if bys.count("timeout") + bys.count("auto") > 2:
        assert Seat.objects.get(table=table, index=0).auto_play
    assert len(pushes) > 3 and 'data-outcome="' in pushes[-1]


def test_the_sweeper_task_resolves_a_decision_whose_timer_was_lost(celery_worker, duel):
    import datetime

    from django.utils import timezone

    from mahjong.tables import tasks

    hand = duel.current_hand()
    # as if the worker holding this decision's timer had died: the deadline has passed
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=10))
    tasks.sweep.apply_async()
    wait_until(lambda: duel.current_hand().version > hand.version)
    record = Event.objects.filter(hand=hand, kind="action").get()
    assert record.data["by"] == "timeout"


def test_the_push_that_ends_a_hand_updates_the_top_bar_beans_and_the_session_scores(
    settings, redis_layer, alice, bob
):
    from catalogue.models import RoomTier

    settings.MAHJONG_TEST_SEED = "win254"  # timeouts end this wall in a self-drawn win
    tier = RoomTier.objects.get(slug="novice")
    table = services.open_table(tier.ruleset, [alice, bob], tier=tier, beans_per_point=50)
    before = alice.beans
    ws = communicator(table, alice)

    def play_out():
        while not (hand := table.current_hand()).game().ended:
            services.advance(hand.pk, hand.version)
        return hand

    async def scenario():
        assert (await ws.connect())[0]
        snapshot = await ws.receive_from(5)
        hand = await database_sync_to_async(play_out)()
        push = await ws.receive_from(5)
        while "data-outcome" not in push:
            push = await ws.receive_from(5)
        await ws.disconnect()
        return snapshot, hand, push

    snapshot, hand, push = run(scenario)
    assert 'id="topbar-beans" class="beans" hx-swap-oob="true"' in snapshot
    alice.refresh_from_db()
    delta = hand.result["beans"][0]
    assert delta and alice.beans == before + delta
    assert 'id="topbar-beans" class="beans" hx-swap-oob="true"' in push
    assert f">{alice.beans:,}</span>" in push.split('id="topbar-beans"', 1)[1]
    points = hand.result["deltas"]
    assert f"Alice <b>{points[0]}</b>" in push and f"Bob <b>{points[1]}</b>" in push


def test_the_page_heartbeat_keeps_its_connection_fresh_and_a_close_removes_it(
    redis_layer, duel, alice
):
    from django.utils import timezone

    from mahjong.tables.models import Connection

    ws = communicator(duel, alice)
    long_ago = timezone.now() - timezone.timedelta(seconds=45)

    async def scenario():
        assert (await ws.connect())[0]
        await ws.receive_from(5)
        await database_sync_to_async(Connection.objects.update)(last_seen=long_ago)
        await ws.send_to(json.dumps({"ping": 1}))
        silent = await ws.receive_nothing(0.5)
        row = await database_sync_to_async(Connection.objects.get)()
        await ws.disconnect()
        return silent, row

    silent, row = run(scenario)
    assert silent  # a ping gets no answer
    assert row.seat.table_id == duel.id and row.last_seen > long_ago
    assert not Connection.objects.exists()
    seat = Seat.objects.get(table=duel, index=0)
    assert seat.connections == 0 and seat.disconnected_at is not None


def test_a_heartbeat_from_a_page_left_behind_brings_it_up_to_date(redis_layer, duel, alice):
    """A lost hint heals: the ping carries the page's version, a stale one gets a push."""
    ws = communicator(duel, alice)
    version = duel.current_hand().version

    async def scenario():
        assert (await ws.connect())[0]
        await ws.receive_from(5)
        await ws.send_to(json.dumps({"ping": 1, "version": version}))
        current_is_silent = await ws.receive_nothing(0.5)
        await ws.send_to(json.dumps({"ping": 1, "version": version - 1}))
        healed = await ws.receive_from(5)
        await ws.disconnect()
        return current_is_silent, healed

    current_is_silent, healed = run(scenario)
    assert current_is_silent
    assert f'data-version="{version}"' in healed and 'id="mj-hand"' in healed


def test_when_redis_comes_back_every_socket_gets_a_fresh_snapshot(redis_layer, duel, alice, bob):
    """Hints published while Redis was away are lost (mahjong.channel_layer): the layer's
    ``layer.resumed`` makes each socket of the process re-render, with no move and no ping."""
    a, b = communicator(duel, alice), communicator(duel, bob)
    version = duel.current_hand().version

    async def scenario():
        assert (await a.connect())[0] and (await b.connect())[0]
        await a.receive_from(5), await b.receive_from(5)
        quiet = await a.receive_nothing(0.3) and await b.receive_nothing(0.1)
        await redis_layer.resume()  # what Redis coming back does
        pushed = await a.receive_from(5), await b.receive_from(5)
        once = await a.receive_nothing(0.3) and await b.receive_nothing(0.1)
        await a.disconnect()
        await b.disconnect()
        return quiet, pushed, once

    quiet, (push_a, push_b), once = run(scenario)
    assert quiet and once
    for push in (push_a, push_b):
        assert f'data-version="{version}"' in push and 'id="mj-hand"' in push


@pytest.mark.parametrize("consumer", [TableConsumer, WatchConsumer])
def test_a_socket_not_yet_at_a_table_ignores_redis_coming_back(consumer):
    """``layer.resumed`` may arrive before the socket's connect was handled."""
    consumer().layer_resumed({"type": "layer.resumed"})  # no table: nothing to push, no error
