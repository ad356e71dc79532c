"""The pool's loan check (mahjong.postgresql.pool_check): a healthy connection is lent without a
round trip, one the server closed is replaced before anyone uses it. PostgreSQL only."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from mahjong.postgresql.pool_check import server_still_there

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dsn(db):
    if connection.vendor != "postgresql":
        pytest.skip("the pool is PostgreSQL's; run with DATABASE_URL=postgres://...")
    return connection.get_connection_params() | {"autocommit": True}


def _pool(dsn, check):
    return ConnectionPool(kwargs=dsn, min_size=1, max_size=1, check=check, open=True)


def _last_query(admin, pid: int) -> str:
    return admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()[0]


def _terminated(admin, conn) -> None:
    """Have the server close ``conn`` (as a restart would) and wait until its socket has
    the server's goodbye to read."""
    admin.execute("SELECT pg_terminate_backend(%s)", [conn.info.backend_pid])
    import select

    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN)
    deadline = time.monotonic() + 5
    while not poller.poll(50) and time.monotonic() < deadline:
        pass


def test_a_healthy_connection_is_lent_without_a_query(dsn):
    with psycopg.connect(**dsn) as admin, _pool(dsn, server_still_there) as pool:
        with pool.connection() as conn:
            conn.execute("SELECT 'marked by the test'")
            pid = conn.info.backend_pid
        with pool.connection() as conn:
            assert conn.info.backend_pid == pid  # the same connection, lent again
            assert _last_query(admin, pid) == "SELECT 'marked by the test'"


def test_psycopg_pools_own_check_sends_one(dsn):
    """What the check replaces: an empty query on every loan."""
    with psycopg.connect(**dsn) as admin, _pool(dsn, ConnectionPool.check_connection) as pool:
        with pool.connection() as conn:
            conn.execute("SELECT 'marked by the test'")
            pid = conn.info.backend_pid
        with pool.connection():
            assert _last_query(admin, pid) != "SELECT 'marked by the test'"


def test_a_connection_the_server_closed_is_replaced_before_use(dsn):
    with psycopg.connect(**dsn) as admin, _pool(dsn, server_still_there) as pool:
        with pool.connection() as conn:
            old = conn.info.backend_pid
            held = conn
        _terminated(admin, held)
        with pool.connection() as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
            assert conn.info.backend_pid != old


def test_without_a_check_the_dead_connection_reaches_its_user(dsn):
    """Why a check is needed at all: the same sequence fails at the first query."""
    with psycopg.connect(**dsn) as admin, _pool(dsn, None) as pool:
        with pool.connection() as conn:
            held = conn
        _terminated(admin, held)
        with pytest.raises(psycopg.OperationalError), pool.connection() as conn:
            conn.execute("SELECT 1")


def test_djangos_pool_replaces_a_connection_the_server_closed(dsn):
    """With DB_POOL, Django's own check is off, and its backend (mahjong.postgresql) lends
    no connection that the server closed: after PostgreSQL ended the pooled connection,
    the next request's first query runs on a new one."""
    script = """
import time, psycopg
from django.db import connection
print(connection.settings_dict["CONN_HEALTH_CHECKS"], connection.settings_dict["ENGINE"])
old = connection.cursor().connection.info.backend_pid
connection.close()  # back to the pool, which keeps it open
with psycopg.connect(**connection.get_connection_params(), autocommit=True) as admin:
    admin.execute("SELECT pg_terminate_backend(%s)", [old])
    gone = "SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = %s"
    while not admin.execute(gone, [old]).fetchone()[0]:
        time.sleep(0.05)
with connection.cursor() as cursor:
    cursor.execute("SELECT pg_backend_pid()")
    print(cursor.fetchone()[0] != old)
connection.close()
"""
    env = {k: v for k, v in os.environ.items() if k != "DB_POOL"}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={
            **env,
            "DATABASE_URL": os.environ["DATABASE_URL"],
            "DB_POOL": "1",
        },
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "mahjong.postgresql", "True"]
