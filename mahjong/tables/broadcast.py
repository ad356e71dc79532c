"""``group_send`` from synchronous code: the hints, emotes and closes the tables send.

In a web process, synchronous code (a consumer, a view) runs in a thread lent by the
event loop that serves it, and ``async_to_sync`` hands the send to that loop. Elsewhere (a
Celery worker's task: the timers and the bots' moves; a management command) there is no
such loop: ``async_to_sync`` then makes a new loop in a new thread for every call, and the
Redis channel layer opens a new connection to Redis for each loop: about 3 ms of CPU per
send on the bench machine, against 0.4 ms on a loop that lives on. So those sends go to
one loop per process, started on first use and kept, whose connections stay open.
"""

from __future__ import annotations

import asyncio
import os
import threading

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

TIMEOUT = 30.0  # seconds: well past redis-py's own socket timeout (5 s)

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid = 0


def group_send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if _served():
        async_to_sync(layer.group_send)(group, message)
        return
    loop = _own_loop()
    future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
    try:
        future.result(TIMEOUT)
    except TimeoutError:
        future.cancel()
        raise


def _served() -> bool:
    """Whether this thread was lent by a running loop (sync_to_async marks the threads it
    lends, and async_to_sync sends to that loop), as asgiref itself finds it out."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return False
    loop = getattr(local, "main_event_loop", None)
    return loop is not None and loop.is_running()


def _own_loop() -> asyncio.AbstractEventLoop:
    """This process's sending loop, in a daemon thread (a new one in a forked child)."""
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid():
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="group-send", daemon=True).start()
        return _loop
