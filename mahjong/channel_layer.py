"""The channel layer: channels-redis's pub/sub layer, which says when Redis came back.

Why pub/sub: the core layer takes a process's messages off Redis one at a time, four
round trips each, so at capacity the other player's screen fell seconds behind the
mover's (docs/BENCHMARKS-diary.md, session 7). Here Redis pushes every message down one
subscribed socket per process, and a hint costs one PUBLISH.

What pub/sub gives up: a message published while a process is not subscribed (Redis
restarting, the link down) is lost, and no socket closes to tell anyone; the core layer
lost those messages too, and its consumers died, closing every socket. redis-py
reconnects and re-subscribes by itself. This layer wraps channels-redis's, through its
public channel-layer API only: it keeps which channels of each event loop are alive (made
by ``new_channel``, until a ``receive`` on them is cancelled, when channels-redis drops
them too) and pings Redis once a second. When a ping succeeds after failing, it waits
until a probe message of its own comes through again (the subscriptions are back), then
sends ``layer.resumed`` to every live channel, and the table sockets answer it with a
fresh snapshot (tables.consumers), so no screen waits for its next heartbeat to catch up.

mahjong/settings.py builds the layer's entry with ``setting()``; the tests and the relay
benchmark use it too, so all of them run the layer the site runs. One Redis server per
layer (the site's configuration): the probe goes through the one connection every channel
of the loop is subscribed on. tests/faults/test_layer_resume.py restarts Redis under it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import ClassVar

import redis.asyncio
from channels_redis.pubsub import RedisPubSubChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

RESUMED = "layer.resumed"

log = logging.getLogger(__name__)


class _FailedReads(logging.Filter):
    """channels-redis logs a traceback for every failed read of its subscription: one a
    second per process for as long as Redis is away. At most one a minute is kept (what
    failed, and why); the others are counted, and the count is told in the line that says
    Redis is back (``_LoopLayer.resumed``). Any other error is logged as channels-redis
    logs it."""

    EVERY = 60.0  # seconds

    def __init__(self, clock=time.monotonic):
        super().__init__()
        self.clock = clock
        self.reset()

    def reset(self) -> None:
        self.unlogged, self.logged_at = 0, -math.inf

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, (RedisConnectionError, RedisTimeoutError, OSError)):
            return True
        now = self.clock()
        if now - self.logged_at < self.EVERY:
            self.unlogged += 1
            return False
        self.logged_at = now
        return True

    def counted(self) -> int:
        """The failed reads not logged since the last count."""
        unlogged, self.unlogged = self.unlogged, 0
        return unlogged


FAILED_READS = _FailedReads()
logging.getLogger("channels_redis.pubsub").addFilter(FAILED_READS)


def setting(redis_url: str, prefix: str = "asgi") -> dict:
    """The CHANNEL_LAYERS entry for a Redis at ``redis_url``."""
    return {
        "BACKEND": f"{__name__}.ResumingChannelLayer",
        "CONFIG": {"hosts": [{"address": redis_url}], "prefix": prefix},
    }


OUTAGE = (RedisConnectionError, RedisTimeoutError, OSError)
PING_EVERY = 1.0  # seconds
PROBE_WAIT = 1.0  # seconds for a probe to come through before the next is sent
PROBE_GIVE_UP = 30  # probes
CANCELLED = (asyncio.CancelledError, asyncio.TimeoutError, GeneratorExit)


def _stop_if_cancelled() -> None:
    """Raise the cancel this task was sent, if something below swallowed it: a cancel
    that lands while redis-py waits on a read can come out as a timeout that redis-py
    retries or that reads as an outage, and a watch that went on would hang the close of
    its event loop (asyncio.run waits for every task it cancelled)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


class ResumingChannelLayer:
    """channels-redis's pub/sub layer (``inner``), and per event loop the channels alive
    on it and a watch on its Redis that tells them when Redis came back."""

    extensions: ClassVar[list[str]] = ["groups", "flush"]

    def __init__(self, hosts=None, prefix: str = "asgi", **kwargs):
        self.inner = RedisPubSubChannelLayer(hosts=hosts, prefix=prefix, **kwargs)
        host = (hosts or ["redis://localhost:6379"])[0]
        self.address = host["address"] if isinstance(host, dict) else host
        self._alive: dict[asyncio.AbstractEventLoop, set[str]] = {}
        self._watches: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}

    def __getattr__(self, name):
        return getattr(self.inner, name)  # the rest of its public API, as it is

    async def send(self, channel: str, message: dict) -> None:
        await self.inner.send(channel, message)

    async def group_add(self, group: str, channel: str) -> None:
        await self.inner.group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        await self.inner.group_discard(group, channel)

    async def group_send(self, group: str, message: dict) -> None:
        await self.inner.group_send(group, message)

    async def new_channel(self, prefix: str = "specific.") -> str:
        channel = await self.inner.new_channel(prefix)
        self._loop_alive().add(channel)
        return channel

    async def receive(self, channel: str) -> dict:
        try:
            return await self.inner.receive(channel)
        except CANCELLED:  # the consumer is gone: channels-redis unsubscribes it as well
            # Not _loop_alive(): a loop closing has ended its watch, and must not get a new one.
            self._alive.get(asyncio.get_running_loop(), set()).discard(channel)
            raise

    async def flush(self) -> None:
        self._loop_alive().clear()
        await self.inner.flush()

    def _loop_alive(self) -> set[str]:
        """This loop's live channels, and its watch started with the first of them."""
        loop = asyncio.get_running_loop()
        if loop not in self._alive:
            self._alive[loop] = set()
            self._watches[loop] = loop.create_task(self._watch())
        return self._alive[loop]

    async def _watch(self) -> None:
        """Once a second, which Redis server answers: after a failed look, or when another
        server process answers (a restart between two looks), the channels are told."""
        client = redis.asyncio.Redis.from_url(self.address, socket_timeout=PING_EVERY)
        probe: str | None = None
        waiting: asyncio.Future | None = None
        server, lost = None, False
        try:
            while True:
                _stop_if_cancelled()
                if server is not None or lost:  # the first look at once: the server now
                    await asyncio.sleep(PING_EVERY)
                try:
                    now = (await client.info("server"))["run_id"]
                    if probe is None:
                        probe = await self.inner.new_channel("resume-probe.")
                        waiting = self._listen(probe)
                except OUTAGE:
                    lost = True
                    continue
                if lost or server not in (None, now):
                    waiting = await self._probed(probe, waiting)
                    await self.resume()
                server, lost = now, False
        finally:  # the loop is closing
            loop = asyncio.get_running_loop()
            self._alive.pop(loop, None)
            self._watches.pop(loop, None)
            await client.aclose()

    async def _probed(self, probe: str, waiting: asyncio.Future) -> asyncio.Future:
        """Once a probe sent now comes through, the loop's subscriptions are back (or, past
        PROBE_GIVE_UP, the channels are told anyway: a late snapshot is harmless)."""
        for _ in range(PROBE_GIVE_UP):
            _stop_if_cancelled()
            try:
                await self.inner.send(probe, {"type": "probe"})
            except OUTAGE:
                pass
            done, _ = await asyncio.wait({waiting}, timeout=PROBE_WAIT)
            if done:
                return self._listen(probe)
        return waiting

    def _listen(self, probe: str) -> asyncio.Future:
        """The next probe's receive. Not once this task is cancelled: the loop is closing,
        and a task started now would not be among those its close cancels and awaits."""
        _stop_if_cancelled()
        return asyncio.ensure_future(self.inner.receive(probe))

    async def resume(self) -> None:
        """Tell every live channel of this loop that messages may have been lost."""
        alive = self._loop_alive()
        told, unlogged = len(alive), FAILED_READS.counted()
        log.warning(
            "Redis is back: %d channels re-subscribed and told to refresh "
            "(%d more failed reads, not logged)",
            told,
            unlogged,
        )
        await asyncio.gather(
            *(self.inner.send(c, {"type": RESUMED}) for c in list(alive)), return_exceptions=True
        )
