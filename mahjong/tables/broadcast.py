"""``group_send`` from synchronous code: the hints, emotes and closes the tables send.

In a web process, synchronous code (a consumer, a view) runs in a thread lent by the
event loop that serves it, and ``async_to_sync`` hands the send to that loop. Elsewhere (a
Celery worker's task: the timers and the bots' moves; a management command) there is no
such loop: ``async_to_sync`` then makes a new loop in a new thread for every call, and the
Redis channel layer opens a new connection to Redis for each loop: about 3 ms of CPU per
send on the bench machine, against 0.4 ms on a loop that lives on. So those sends go to
one loop per process, started on first use and kept, whose connections stay open.

Which loop serves the process is recorded by the ASGI application itself (``served_by``,
wrapped around it in mahjong/asgi.py): the thread a send comes from does not say, short
of asgiref's private thread-locals.
"""

from __future__ import annotations

import asyncio
import os
import threading

from channels.layers import get_channel_layer

TIMEOUT = 30.0  # seconds: well past redis-py's own socket timeout (5 s)

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid = 0
_serving: asyncio.AbstractEventLoop | None = None


def group_send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _serving_loop() or _own_loop()
    if _running_loop() is loop:  # as async_to_sync refuses it: waiting here would hang
        raise RuntimeError("group_send is for synchronous code; on the loop, await the layer")
    future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
    try:
        future.result(TIMEOUT)
    except TimeoutError:
        future.cancel()
        raise


def served_by(app):
    """The ASGI application, recording the event loop that serves this process as each
    connection or request arrives: sends from the threads it lends (consumers, views) go
    to that loop, as ``async_to_sync`` would send them."""

    async def serve(scope, receive, send):
        global _serving
        _serving = asyncio.get_running_loop()
        return await app(scope, receive, send)

    return serve


def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The loop serving this process, while it runs (a test's loop ends with its test)."""
    loop = _serving
    return loop if loop is not None and loop.is_running() else None


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _own_loop() -> asyncio.AbstractEventLoop:
    """This process's sending loop, in a daemon thread (a new one in a forked child)."""
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid():
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="group-send", daemon=True).start()
        return _loop
