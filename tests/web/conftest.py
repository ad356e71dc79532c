"""Fixtures of the web tests: players, clients, caches, and live tables (their helpers
are in tables_support.py)."""

from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connections

from mahjong import channel_layer
from tests.web.tables_support import REDIS_URL, RUN_ID, _fresh_pools, redis_databases


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Registration hashes a password per player; PBKDF2's deliberate slowness is not
    # what these tests are about.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the site's language. The test client runs a request in the test's
    own thread, and LocaleMiddleware leaves that request's language active after it: a test
    whose client reads English made every later test's gettext English."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


def _private_cache_location(location: str) -> str:
    """The configured Redis server, database 15 (each xdist worker its own: redis_databases
    in tables_support.py): clear() is a FLUSHDB, and database 0 belongs to whatever else
    uses this server (a `make run`, the channel layer)."""
    parts = urlsplit(location)
    if parts.scheme not in ("redis", "rediss"):
        return location  # a unix socket: a private embedded server
    return urlunsplit(parts._replace(path=f"/{redis_databases()[1]}"))


@pytest.fixture(autouse=True)
def empty_cache(settings):
    # Throttle counters live in the cache; each test starts with none.
    from django.core.cache import cache

    cache_config = settings.CACHES["default"]
    if cache_config["BACKEND"].endswith("RedisCache"):
        location = _private_cache_location(cache_config["LOCATION"])
        settings.CACHES = {"default": {**cache_config, "LOCATION": location}}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def private_cache(settings):
    """This process's own cache: the shared Redis test database is flushed by every other
    web test running at the same time, which would drop the boards cached here."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


# ----- live tables (tests/web/tables_support.py has the helpers) ------------------------
# ``no_eager_timers`` is used by the modules that play at tables (their pytestmark): it
# keeps Celery eager so no timer runs unless ``celery_worker`` turns real ones on.


@pytest.fixture
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
