"""The channel layer: channels-redis's pub/sub layer, which says when Redis came back.

Why pub/sub: the core layer takes a process's messages off Redis one at a time, four
round trips each, so at capacity the other player's screen fell seconds behind the
mover's (docs/BENCHMARKS-diary.md, session 7). Here Redis pushes every message down one
subscribed socket per process, and a hint costs one PUBLISH.

What pub/sub gives up: a message published while a process is not subscribed (Redis
restarting, the link down) is lost, and no socket closes to tell anyone; the core layer
lost those messages too, and its consumers died, closing every socket. redis-py
reconnects and re-subscribes by itself; this layer then puts a ``layer.resumed`` message
in every channel of the process, and the table sockets answer it with a fresh snapshot
(tables.consumers), so no screen waits for its next heartbeat to catch up.

mahjong/settings.py builds the layer's entry with ``setting()``; the tests and the relay
benchmark use it too, so all of them run the layer the site runs. The subclasses lean on
channels-redis 4.3.0's insides (a loop layer's shards, a shard's pub/sub connection),
pinned in pyproject.toml; tests/faults/test_layer_resume.py fails if an upgrade moves them.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts
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


class ResumingChannelLayer(RedisPubSubChannelLayer):
    """One loop layer per event loop, as the base class keeps them, but ours."""

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts=None, **kwargs):
        super().__init__(hosts, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]

    def resumed(self) -> None:
        """Every channel of this loop may have missed messages: tell each one."""
        told, unlogged = len(self.channels), FAILED_READS.counted()
        log.warning("Redis is back: %d channels re-subscribed and told to refresh "
                    "(%d more failed reads, not logged)", told, unlogged)
        message = self.channel_layer.serialize({"type": RESUMED})
        for queue in self.channels.values():
            queue.put_nowait(message)


class _Shard(RedisSingleShardConnection):
    async def subscribe(self, channel):
        await super().subscribe(channel)
        # redis-py calls a connection's callbacks on every reconnection, after the pub/sub's
        # own (which re-subscribes); not on the first connection, made before this runs.
        self._pubsub.connection.register_connect_callback(self._reconnected)

    def _reconnected(self, connection) -> None:
        self.channel_layer.resumed()
