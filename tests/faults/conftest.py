"""Fault-test fixtures: one database shared by this process and the stack's processes, a
private Redis server, and a cluster of daphne and Celery processes that the tests kill.

The database follows the suite's, as the e2e site's does (tests/e2e/conftest.py): on
PostgreSQL (CI) a database of its own on the same server, created for the run and dropped
after it; otherwise a SQLite file. pytest-django's test database cannot be shared: SQLite's
is in this process's memory. So these tests take no ``db`` fixture; ``stack_db`` points
this thread's default connection at the shared database instead (``use_stack_db`` does the
same in a worker thread), and every test makes its own players and tables.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from contextlib import contextmanager

import pytest

from mahjong import channel_layer
from tests.e2e.conftest import _database_url
from tests.faults.checks import TALLY
from tests.faults.stack import ROOT, Redis, Stack

# Short timers so a timeout fits in a test; long enough that a scripted player always
# answers first on a busy machine (a push takes well under a second).
FAST_TIMERS = {"decision": 3, "bot_delay": 0.3, "locked_delay": 0.3, "claim_pause": 0.3}
PASSWORD = "tile-river-5m-7z"
MOVED = re.compile(r"tasks\.advance\[[^\]]+\] succeeded in \S+: True")  # a timer that moved


def pytest_terminal_summary(terminalreporter):
    """The run's figures (docs/RELIABILITY.md)."""
    for name, count in sorted(TALLY.items()):
        terminalreporter.write_line(f"faults: {name}: {count}")


@pytest.fixture(scope="session")
def stack_database_url(tmp_path_factory, django_db_blocker):
    with _database_url(tmp_path_factory.mktemp("faults-db")) as url:
        env = _child_env(url)
        manage = [sys.executable, str(ROOT / "manage.py")]
        for command in (["migrate", "--noinput"], ["load_builtin"]):
            subprocess.run(
                [*manage, *command], env=env, cwd=ROOT, check=True, capture_output=True,
                timeout=180,
            )  # fmt: skip
        with django_db_blocker.unblock(), _connected(url):
            from catalogue.models import Ruleset

            for ruleset in Ruleset.objects.all():
                ruleset.overrides = {**(ruleset.overrides or {}), "timers": FAST_TIMERS}
                ruleset.save(update_fields=["overrides"])
        yield url


def _child_env(url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    return {**env, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "mahjong.settings"}


@contextmanager
def _connected(url: str):
    """This thread's ``default`` connection on the shared database, as Django's live
    server lends a connection to its thread (tests/web/tables_support.py does the same)."""
    from django.db import connections
    from django.db.utils import ConnectionHandler

    from mahjong.settings import parse_database_url

    handler = ConnectionHandler({"default": parse_database_url(url)})
    conn = handler["default"]
    saved = connections["default"]
    connections["default"] = conn
    try:
        yield conn
    finally:
        conn.close()
        connections["default"] = saved


@pytest.fixture(scope="session")
def private_redis(tmp_path_factory):
    redis = Redis(tmp_path_factory.mktemp("faults-redis"))
    redis.start()
    yield redis
    redis.kill()


class Cluster:
    """The stack's processes, started on demand and replaced when a test killed one."""

    def __init__(self, stack: Stack):
        self.stack = stack
        self.webs: list = []
        self.workers: list = []

    def web(self, index: int):
        self.webs = [w for w in self.webs if w.child.alive()]
        while len(self.webs) <= index:
            self.webs.append(self.stack.web())
        return self.webs[index]

    def worker(self, index: int = 0):
        self.workers = [w for w in self.workers if w.alive()]
        while len(self.workers) <= index:
            self.workers.append(self.stack.worker())
        return self.workers[index]

    def timer_moves(self) -> int:
        """Timer tasks that moved a table so far, by the live workers' logs."""
        return sum(len(MOVED.findall(w.output())) for w in self.workers if w.alive())


@pytest.fixture(scope="session")
def cluster(tmp_path_factory, stack_database_url, private_redis):
    stack = Stack(tmp_path_factory.mktemp("faults-stack"), stack_database_url, private_redis)
    try:
        yield Cluster(stack)
    finally:
        stack.close()


@pytest.fixture
def stack_db(stack_database_url, django_db_blocker):
    """The test's own thread on the shared database."""
    with django_db_blocker.unblock(), _connected(stack_database_url):
        yield stack_database_url


@pytest.fixture
def use_stack_db(stack_db):
    """``with use_stack_db():`` in a worker thread: that thread's connection too."""
    return lambda: _connected(stack_db)


@pytest.fixture
def peer(settings, private_redis, stack_db):
    """This process as one more member of the stack: its hints go to the stack's channel
    layer and its timers to the stack's broker (as the Celery worker fixture does)."""
    from channels.layers import channel_layers

    from mahjong.celery import app
    from tests.web.tables_support import _fresh_pools

    settings.CHANNEL_LAYERS = {"default": channel_layer.setting(private_redis.url)}
    channel_layers.backends.clear()
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "task_default_queue")}
    from mahjong.settings import celery_broker_url

    app.conf.update(
        broker_url=celery_broker_url(private_redis.url),
        task_always_eager=False,
        task_default_queue="celery",
    )
    _fresh_pools(app)
    yield
    app.conf.update(saved)
    _fresh_pools(app)
    channel_layers.backends.clear()


@pytest.fixture
def players(stack_db):
    """players(): two new registered players with beans (unique names per call)."""
    from accounts import services, wallet

    def make(beans: int = 20_000):
        made = []
        for prefix in ("ann", "ben"):
            name = f"{prefix}{uuid.uuid4().hex[:8]}"
            user = services.register(username=name, password=PASSWORD, nickname=name)
            if user.beans != beans:
                wallet.adjust(
                    user, beans - user.beans, note="test set-up", actor=None,
                    key=f"test-setup:{user.public_id}",
                )  # fmt: skip
            user.refresh_from_db()
            made.append(user)
        return made

    return make


def open_duel(users, decision: int | None = None):
    """A novice-room table (stakes) for ``users``: the table and the users. ``decision``
    gives this table's ruleset a decision timer of its own (a copy of the room's)."""
    from catalogue.models import RoomTier, Ruleset
    from mahjong.tables import services

    tier = RoomTier.objects.get(slug="novice")
    ruleset = tier.ruleset
    if decision is not None:
        timers = {**FAST_TIMERS, "decision": decision}
        ruleset = Ruleset.objects.create(
            slug=f"faults-{uuid.uuid4().hex[:8]}",
            engine_slug=ruleset.engine_slug,
            name=ruleset.name,
            overrides={**ruleset.overrides, "timers": timers},
        )
    table = services.open_table(ruleset, users, tier=tier, beans_per_point=tier.beans_per_point)
    return table, users


@pytest.fixture
def opened(stack_db):
    """The tables a test opened, closed after it: the stack's workers, which outlive the
    test, then leave them alone (no timers, no sweeps, no settlements in later tests)."""
    from mahjong.tables.models import Table

    tables: list = []
    yield tables
    Table.objects.filter(pk__in=[t.pk for t in tables]).update(status=Table.Status.FINISHED)


@pytest.fixture
def duel_table(players, peer, opened):
    """A novice-room table (stakes) for two new players; opened by this process, so its
    first timer goes to the stack's broker."""

    def make(beans=20_000, decision=None):
        table, users = open_duel(players(beans), decision)
        opened.append(table)
        return table, users

    return make


@pytest.fixture
def no_timers(settings, stack_db):
    """Tables opened here schedule no timers and send hints nowhere (the races are run by
    the test's own threads)."""
    from channels.layers import channel_layers

    from mahjong.celery import app

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before
    channel_layers.backends.clear()


@pytest.fixture
def quiet_table(players, no_timers, opened):
    """A table only the test moves: no timers, and a 60 s decision so that no worker's
    sweeper moves it while the test plays."""

    def make(beans=20_000):
        table, users = open_duel(players(beans), decision=60)
        opened.append(table)
        return table, users

    return make
