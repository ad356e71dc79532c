"""A socket's own budget of incoming frames, taken as they arrive, before a frame gets a
thread, a query or a Redis call (consumers._TableSocket).

Daphne queues every frame a client sends, without bound, until the consumer takes it, and
a consumer takes the next only once it has handled the last (a thread hop, and for a
player's message the per-user bucket's Redis round trip, tables.ratelimit). A script's
1.2 M tiny frames were all queued, and worked through for ten minutes. A budget checked
as the consumer takes frames would not do: it refills while each frame is handled, so a
consumer slower than the refill never runs it dry. So the socket's ``Inbox`` takes the
frames off daphne's queue as they come, in a task of its own that does nothing else,
spends a token on each, and hands the consumer only those within the budget; past it the
socket is closed (FLOODED) and every later frame is dropped unread, until the close has
gone through (daphne delivers what the client sent meanwhile: about a second's worth, its
close handshake's timeout, as a flooding client does not answer the close).

A client that opens a new socket after each close would flood on; so the account opens
no table socket for ``TABLES_SOCKET_FLOOD_COOLDOWN`` seconds after a flood (``cooling``:
a cache key, seen by every web process).

The budget refills ``TABLES_SOCKET_FRAME_RATE`` a second up to ``TABLES_SOCKET_FRAME_BURST``:
far above the per-user "slow down" bucket, so a player's own flood of moves is still
slowed rather than cut off, and only a script ever runs this one dry. It is the socket's
alone: nothing to share with other processes.
"""

from __future__ import annotations

import asyncio
import time

from django.conf import settings
from django.core.cache import cache

FLOODED = 4008  # the close code, as WebSocket's 1008 (policy violation)
clock = time.monotonic  # seconds; tests stop it


def _cooling_key(user_id: int) -> str:
    return f"tables:flooded:{user_id}"


def cooling(user) -> bool:
    """Whether this account flooded a socket a moment ago (its new sockets are refused)."""
    return bool(user.pk) and cache.get(_cooling_key(user.pk)) is not None


class FrameBudget:
    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens, self.at = float(burst), clock()

    @classmethod
    def from_settings(cls) -> FrameBudget:
        return cls(settings.TABLES_SOCKET_FRAME_RATE, settings.TABLES_SOCKET_FRAME_BURST)

    def take(self) -> bool:
        """One frame's token; False once the socket has sent past its budget."""
        now = clock()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Inbox:
    """Between daphne's ``receive`` and the consumer: ``pump`` (a task) takes every event
    as it arrives; ``get`` gives the consumer the ones let through."""

    def __init__(self, receive, send, user_id: int | None):
        self.receive, self.send, self.user_id = receive, send, user_id
        self.budget = FrameBudget.from_settings()
        self.passed: asyncio.Queue = asyncio.Queue()  # at most a budget's worth of frames
        self.flooded = False

    async def pump(self) -> None:
        while True:
            event = await self.receive()
            if event["type"] == "websocket.receive" and not await self._admit():
                continue
            self.passed.put_nowait(event)
            if event["type"] == "websocket.disconnect":
                return

    async def _admit(self) -> bool:
        if self.flooded:
            return False
        if self.budget.take():
            return True
        self.flooded = True
        await self.send({"type": "websocket.close", "code": FLOODED})
        if self.user_id and settings.TABLES_SOCKET_FLOOD_COOLDOWN:
            key, seconds = _cooling_key(self.user_id), settings.TABLES_SOCKET_FLOOD_COOLDOWN
            await cache.aset(key, 1, seconds)
        return False

    async def get(self) -> dict:
        return await self.passed.get()
