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

With DB_POOL the settings turn CONN_HEALTH_CHECKS off and use the backend in
mahjong/postgresql, which makes this check on each loan.
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
