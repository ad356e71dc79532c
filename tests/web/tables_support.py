"""Fixtures for the live-table tests (imported by tests/web/test_tables*.py): a table
opened with the real services, a real Redis channel layer under a private prefix, and a
real Celery worker on a private queue (never eager mode)."""

from __future__ import annotations

import os
import time
import uuid
from urllib.parse import urlsplit, urlunsplit

from asgiref.sync import async_to_sync

# Under pytest-xdist (`make test`'s parallel part, tests/with_redis.py) each worker process
# is gw0, gw1, ...: each keeps Redis databases of its own, as pytest-django gives each its
# own test database (test_<name>_gw0, ...). Without xdist: "".
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
MAX_WORKERS = 7  # gw0 to gw6 keep databases 14/15 down to 2/3; 0 and 1 are left to others


def redis_databases(worker: str = WORKER) -> tuple[int, int]:
    """(live tables, cache): the Redis database numbers of this test process, 14 and 15,
    or 14 - 2n and 15 - 2n for xdist's worker gw<n>. The cache's clear() is a FLUSHDB, run
    around every web test (tests/web/conftest.py): a worker flushing another's database
    would drop its throttle counters, channel-layer messages and queued timers mid-test."""
    n = int(worker.removeprefix("gw")) if worker else 0
    if not 0 <= n < MAX_WORKERS:
        raise RuntimeError(
            f"xdist worker {worker}: at most {MAX_WORKERS} workers (-n) share one Redis"
        )
    return 14 - 2 * n, 15 - 2 * n


def _test_redis_url() -> str:
    """REDIS_URL's server, database 14 (redis_databases()): the cache's clear() between web
    tests (and other processes sharing the server) FLUSHDB the configured database, which
    would drop our channel-layer messages and queued timers mid-test."""
    url = os.environ.get("TABLES_TEST_REDIS_URL")
    if url:
        return url  # as given, for every worker: their queues and prefixes are RUN_ID's
    parts = urlsplit(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")
    if parts.scheme in ("redis", "rediss"):
        return urlunsplit(parts._replace(path=f"/{redis_databases()[0]}"))
    return urlunsplit(parts)  # a unix socket: a private server, nobody else flushes it


REDIS_URL = _test_redis_url()
RUN_ID = uuid.uuid4().hex[:8]  # other sessions may share this Redis: keep to our own names


def _fresh_pools(app) -> None:
    """Forget the app's cached broker connections (as Celery does after a fork)."""
    app._pool = None  # not closed: kombu hands the same pool out again for the same URL
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


def play_out(table):
    """Let every pending decision time out until the hand ends (as the timers would)."""
    from mahjong.tables import services

    for _ in range(500):
        hand = table.current_hand()
        if hand.game().ended:
            return hand
        assert services.advance(hand.pk, hand.version)
    raise AssertionError("the hand did not end")


def act_through_pause(table, user, text, version) -> None:
    """services.act; a pass the claim pause holds (sent before the pause's end) is then
    played as the pause's timer plays it at its end."""
    from mahjong.tables import services

    services.act(table, user, text, version)
    hand = table.current_hand()
    if hand.held:
        assert services.advance(hand.pk, hand.version)


def wait_until(predicate, timeout=20.0, every=0.05, what=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}")


def private_table(one, two):
    """A private room's table between two players: unranked, no beans at stake."""
    from catalogue.models import RoomTier
    from mahjong.tables import services
    from mahjong.tables.models import Match

    ruleset = RoomTier.objects.get(slug="novice").ruleset
    friendly = Match.objects.create(
        kind=Match.Kind.PRIVATE, ruleset=ruleset, ranked=False, player_one=one, player_two=two
    )
    return services.open_table(ruleset, [one, two], match=friendly)


async def refused_connect(communicator):
    """Connect where a refusal is expected, then end the consumer as daphne does (it sends
    the disconnect): a consumer left running is cancelled when the test's event loop closes,
    and that cancellation can hang in the Redis channel layer's pending receive."""
    result = await communicator.connect()
    await communicator.disconnect()
    return result


def run(coro_fn, *args):
    """Run an async test helper from a sync test (sync consumer code then runs here)."""
    return async_to_sync(coro_fn)(*args)
