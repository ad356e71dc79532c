"""The database pool's check on lending a connection (settings: DB_POOL), without a round
trip to the server.

psycopg_pool's own check (``ConnectionPool.check_connection``, which Django installs when
CONN_HEALTH_CHECKS is on) sends an empty query on every loan, and a pooled process lends
a connection for every request and every socket message: two or three round trips per
move, for connections that are nearly always fine. An idle connection's socket has
nothing to read, because PostgreSQL writes to it only to answer a query or to say why it
is closing it (a restart, ``pg_terminate_backend``, an idle timeout, a failover). So a
socket with something to read, or a connection libpq already knows is broken, is closed
here and refused; the pool then lends (or opens) another. A connection whose server
vanished without a word (a cut network) is still found by the query that uses it.

Django 5.2 passes its own ``check`` to the pool (and refuses one in OPTIONS["pool"]), so
with DB_POOL the settings turn CONN_HEALTH_CHECKS off and ``use_on_pools``, run on each
new connection (connection_created, tables.apps), gives the pool this check.
"""

from __future__ import annotations

import select


def server_still_there(conn) -> None:
    """Raise psycopg.OperationalError when ``conn`` must not be lent; close it first, so
    the pool replaces it rather than taking it back."""
    import psycopg
    from psycopg import pq

    if conn.closed or conn.pgconn.status != pq.ConnStatus.OK:
        conn.close()
        raise psycopg.OperationalError("the connection is closed")
    poller = select.poll()  # not select.select: a busy process's descriptors pass 1024
    poller.register(conn.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
    if poller.poll(0):
        conn.close()
        raise psycopg.OperationalError("the server has closed the connection")


def use_on_pools(sender=None, connection=None, **kwargs) -> None:
    """connection_created's receiver: the pool behind ``connection``, if any, checks its
    loans with server_still_there (set once per pool; Django builds one per process)."""
    pool = getattr(connection, "pool", None)
    if pool is not None and getattr(pool, "_check", None) is None:
        pool._check = server_still_there  # psycopg_pool's own attribute for its check
