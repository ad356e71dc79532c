"""tables.broadcast: a send from a process no ASGI loop serves (a Celery task) goes through
one loop that lives on, over the connections it keeps; a send from a thread the ASGI
application lent (a consumer) through the loop serving it."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio.connection
from asgiref.sync import sync_to_async

from mahjong.tables import broadcast


@pytest.fixture
def connections_made(monkeypatch):
    """connections_made(): the Redis connections this process has opened so far (asyncio
    ones: the channel layer's). Counted here, not by the server's total_connections_received,
    which every other process on the server adds to (a parallel run's other workers)."""
    made = [0]
    connection_class = redis.asyncio.connection.AbstractConnection
    connect = connection_class.connect_check_health

    async def counted(self, *args, **kwargs):
        if not self.is_connected:
            made[0] += 1
        return await connect(self, *args, **kwargs)

    monkeypatch.setattr(connection_class, "connect_check_health", counted)
    return lambda: made[0]


def test_sends_from_a_plain_thread_share_one_loop_and_its_connections(
    redis_layer, connections_made
):
    layer = redis_layer

    def sends():
        for n in range(20):
            broadcast.group_send("broadcast-test", {"type": "hint", "n": n})

    async def scenario():
        # one loop receives throughout: the pub/sub layer subscribes per loop
        channel = await layer.new_channel()
        await layer.group_add("broadcast-test", channel)
        warm = {"type": "warm", "n": -1}
        await asyncio.to_thread(broadcast.group_send, "broadcast-test", warm)  # it connects
        before = connections_made()
        await asyncio.to_thread(sends)  # as a Celery worker's thread pool runs a task
        made = connections_made() - before
        return made, [await asyncio.wait_for(layer.receive(channel), 10) for _ in range(21)]

    made, messages = asyncio.run(scenario())
    assert made <= 1  # a new loop per call made 20
    assert [m["n"] for m in messages] == list(range(-1, 20))


def test_a_served_thread_sends_through_the_loop_serving_it(redis_layer, monkeypatch):
    layer = redis_layer

    def no_own_loop():
        raise AssertionError("a served thread must not use the process's own loop")

    monkeypatch.setattr(broadcast, "_own_loop", no_own_loop)

    async def consumer(scope, receive, send):  # a sync consumer's send, in a lent thread
        await sync_to_async(broadcast.group_send)("broadcast-served", {"type": "hint", "n": 7})

    async def served():
        channel = await layer.new_channel()
        await layer.group_add("broadcast-served", channel)
        await broadcast.served_by(consumer)({"type": "websocket"}, None, None)
        return await asyncio.wait_for(layer.receive(channel), 10)

    assert asyncio.run(served())["n"] == 7
    with pytest.raises(AssertionError, match="must not use"):
        broadcast.group_send("broadcast-served", {"type": "hint"})  # its loop has ended


def test_a_send_on_the_serving_loop_itself_is_refused_not_hung(redis_layer):
    async def on_the_loop(scope, receive, send):
        broadcast.group_send("broadcast-served", {"type": "hint"})  # no thread lent

    with pytest.raises(RuntimeError, match="synchronous code"):
        asyncio.run(broadcast.served_by(on_the_loop)({"type": "websocket"}, None, None))


def test_without_a_channel_layer_nothing_is_sent(settings):
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {}
    channel_layers.backends.clear()
    try:
        broadcast.group_send("nobody", {"type": "hint"})  # no error, nothing to do
    finally:
        channel_layers.backends.clear()
