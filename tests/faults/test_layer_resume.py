"""The channel layer across a Redis restart (mahjong.channel_layer), on a private
redis-server that loses everything: the process's subscriptions come back by themselves,
and every channel is told that messages may have been lost in between."""

from __future__ import annotations

import asyncio
import logging
import re
import threading

from redis.exceptions import ConnectionError as RedisConnectionError

from mahjong.channel_layer import FAILED_READS, RESUMED, ResumingChannelLayer
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


def test_an_outage_logs_its_first_failed_read_and_then_one_line_when_redis_is_back(
    private_redis, caplog
):
    """channels-redis logs a traceback per failed read, one a second per process while
    Redis is away: one a minute is kept, the rest are counted into the "back" line."""
    FAILED_READS.reset()  # a read failed in the test before, less than a minute ago
    layer = ResumingChannelLayer(hosts=[{"address": private_redis.url}], prefix="outage-test")

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add("table", channel)
        private_redis.kill()
        injected("Redis away for 3.5 s under a running channel layer")
        await asyncio.sleep(3.5)  # the layer's reads fail meanwhile, about one a second
        private_redis.start()
        told = await asyncio.wait_for(layer.receive(channel), 20)
        await layer.flush()
        return told

    assert asyncio.run(scenario()) == {"type": RESUMED}
    failures = [r for r in caplog.records if r.name == "channels_redis.pubsub"]
    assert len(failures) == 1 and failures[0].exc_info  # the first, with its traceback
    back = [r.getMessage() for r in caplog.records if "Redis is back" in r.getMessage()]
    assert len(back) == 1
    unlogged = int(re.search(r"\((\d+) more failed reads, not logged\)", back[0]).group(1))
    assert unlogged >= 2, back[0]


def _record(error: BaseException) -> logging.LogRecord:
    return logging.LogRecord(
        "channels_redis.pubsub",
        logging.ERROR,
        __file__,
        1,
        "Unexpected exception in receive task",
        None,
        (type(error), error, None),
    )


def test_failed_reads_are_logged_once_a_minute_and_other_errors_always():
    from mahjong.channel_layer import _FailedReads

    now = [1000.0]
    reads = _FailedReads(clock=lambda: now[0])
    lost = RedisConnectionError("Connection closed by server.")
    assert reads.filter(_record(lost))  # the first: kept, with its traceback
    assert not any(reads.filter(_record(lost)) for _ in range(5))
    assert all(reads.filter(_record(ValueError("a bug"))) for _ in range(3))  # not an outage
    assert reads.counted() == 5 and reads.counted() == 0
    now[0] += reads.EVERY
    assert reads.filter(_record(OSError("reset by peer")))  # a minute on: kept again


def test_an_event_loop_closes_whenever_it_closes_under_the_layers_watch(private_redis, caplog):
    """A test's event loop (async_to_sync) closes a few milliseconds after its consumer
    connects, while the layer's watch is still taking its first look at Redis: a cancel
    that redis-py swallows there must not keep the watch going, or the close waits for it
    forever. Each close also leaves no task of the layer's running on the closed loop."""
    layer = ResumingChannelLayer(hosts=[{"address": private_redis.url}], prefix="close-test")

    async def consumer(after: float, hang_up: bool):
        channel = await layer.new_channel()
        receiving = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(after)
        if hang_up:  # the consumer ends before the loop does; else the close cancels it
            receiving.cancel()
            await asyncio.gather(receiving, return_exceptions=True)

    def close_at(after: float, hang_up: bool, left: list):
        with asyncio.Runner() as runner:
            runner.run(consumer(after, hang_up))
            loop = runner.get_loop()
        left.extend(task for task in asyncio.all_tasks(loop) if not task.done())

    for step in range(40):
        left: list = []
        closing = threading.Thread(target=close_at, args=(step / 2000, step % 2 == 1, left))
        closing.daemon = True  # a hang fails this test rather than the interpreter's exit
        closing.start()
        closing.join(timeout=15)
        assert not closing.is_alive(), f"the loop closed {step / 2} ms in is still closing"
        assert not left, left
    assert "Unexpected exception while cleaning-up channel" not in caplog.text
