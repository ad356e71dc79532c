"""The channel layer across a Redis restart (mahjong.channel_layer), on a private
redis-server that loses everything: the process's subscriptions come back by themselves,
and every channel is told that messages may have been lost in between."""

from __future__ import annotations

import asyncio

from mahjong.channel_layer import RESUMED, ResumingChannelLayer
from tests.faults.checks import injected


def test_after_a_redis_restart_every_channel_is_told_and_groups_deliver_again(
    private_redis, caplog
):
    layer = ResumingChannelLayer(hosts=[{"address": private_redis.url}], prefix="resume-test")

    async def next_of(channel):
        return await asyncio.wait_for(layer.receive(channel), 20)

    async def scenario():
        a, b = await layer.new_channel(), await layer.new_channel()
        for channel in (a, b):
            await layer.group_add("table", channel)
        await layer.group_send("table", {"type": "hand.changed", "n": 1})
        before = [await next_of(a), await next_of(b)]
        # in this thread, which the server outlives (its parent-death signal follows the
        # thread that started it); the loop stands still meanwhile, as a busy one would
        private_redis.restart(down_for=1.0)
        injected("Redis restart under a subscribed channel layer")
        told = [await next_of(a), await next_of(b)]
        await layer.group_send("table", {"type": "hand.changed", "n": 2})
        after = [await next_of(a), await next_of(b)]
        await layer.flush()
        return before, told, after

    before, told, after = asyncio.run(scenario())
    assert [m["n"] for m in before] == [1, 1]  # no "resumed" without a restart
    assert told == [{"type": RESUMED}] * 2
    assert [m["n"] for m in after] == [2, 2]
    assert "Redis is back: 2 channels re-subscribed and told to refresh" in caplog.text
