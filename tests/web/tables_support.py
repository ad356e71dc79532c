"""Fixtures for the live-table tests (imported by tests/web/test_tables*.py): a table
opened with the real services, a real Redis channel layer under a private prefix, and a
real Celery worker on a private queue (never eager mode)."""

from __future__ import annotations

import os
import time
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from asgiref.sync import async_to_sync
from django.db import connections

from mahjong import channel_layer


def _test_redis_url() -> str:
    """REDIS_URL's server, database 14: the cache's clear() between web tests (and other
    processes sharing the server) FLUSHDB the configured database, which would drop our
    channel-layer messages and queued timers mid-test."""
    url = os.environ.get("TABLES_TEST_REDIS_URL")
    if url:
        return url
    parts = urlsplit(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")
    if parts.scheme in ("redis", "rediss"):
        return urlunsplit(parts._replace(path="/14"))
    return urlunsplit(parts)  # a unix socket: a private server, nobody else flushes it


REDIS_URL = _test_redis_url()
RUN_ID = uuid.uuid4().hex[:8]  # other sessions may share this Redis: keep to our own names


@pytest.fixture(autouse=True)
def no_eager_timers(settings):
    """By default no timers run (the service skips scheduling in eager mode); the
    ``celery_worker`` fixture turns real ones on."""
    from mahjong.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    settings.TABLES_BOT_DELAY = (0.05, 0.1)
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def redis_layer(settings):
    """The real channels-redis layer, on a prefix of our own."""
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {"default": channel_layer.setting(REDIS_URL, f"test-tables-{RUN_ID}")}
    channel_layers.backends.clear()
    yield channel_layers["default"]
    channel_layers.backends.clear()


@pytest.fixture
def celery_worker(transactional_db, redis_layer):
    """A real Celery worker thread consuming a private queue on the real Redis broker."""
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun, task_prerun

    from mahjong.celery import app
    from mahjong.tables import tasks

    queue = f"test-tables-{RUN_ID}"
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "task_default_queue")}
    app.conf.update(broker_url=REDIS_URL, task_always_eager=False, task_default_queue=queue)
    _fresh_pools(app)  # a producer pool made earlier would still publish to the old broker
    # SQLite's in-memory test database lives in this thread's connection: lend it to the
    # worker thread, as Django's live server does. PostgreSQL uses real connections.
    main = connections["default"]
    shared = main if main.vendor == "sqlite" else None
    if shared is not None:
        shared.inc_thread_sharing()

    def lend(**kwargs):
        if shared is not None:
            connections["default"] = shared

    def give_back(**kwargs):
        if shared is None:
            from django.db import close_old_connections

            close_old_connections()

    task_prerun.connect(lend, weak=False)
    task_postrun.connect(give_back, weak=False)
    tasks.SWEEP_LOOP = False
    try:
        with start_worker(
            app,
            pool="solo",
            concurrency=1,
            perform_ping_check=False,
            loglevel="WARNING",
            shutdown_timeout=10,
            queues=[queue],
        ):
            yield app
    finally:
        task_prerun.disconnect(lend)
        task_postrun.disconnect(give_back)
        tasks.SWEEP_LOOP = True
        app.conf.update(saved)
        _fresh_pools(app)
        if shared is not None:
            shared.dec_thread_sharing()


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


@pytest.fixture
def bot_table(alice):
    """alice (seat 0) against the random bot (seat 1) under the classic rules."""
    from accounts.models import User
    from catalogue.models import Ruleset
    from mahjong.tables import services

    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    return services.open_table(
        Ruleset.objects.get(slug="classic"), [alice, bot], bot_level="random"
    )


@pytest.fixture
def dave_at_a_bot(builtin, make_player):
    """dave (seat 0) against the random bot: a second table in play beside alice's (one
    game at a time: she cannot hold a seat in both)."""
    from accounts.models import User
    from catalogue.models import Ruleset
    from mahjong.tables import services

    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    return services.open_table(
        Ruleset.objects.get(slug="classic"), [make_player("dave"), bot], bot_level="random"
    )


@pytest.fixture
def duel(alice, bob):
    """alice (seat 0) and bob (seat 1) at a novice-room table with stakes."""
    from catalogue.models import RoomTier
    from mahjong.tables import services

    tier = RoomTier.objects.get(slug="novice")
    return services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )
