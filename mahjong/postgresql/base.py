"""Django's PostgreSQL backend, subclassed as Django's documentation describes: with a
pool, a connection is lent only once ``pool_check.server_still_there`` passes it
(its module says why that check and not psycopg_pool's).

Django 5.2 builds the pool with its own ``check`` (a query per loan, or none) and refuses
one in OPTIONS["pool"], so the check is made where Django takes a connection from the
pool. One that fails is handed back to the pool, closed, and the pool drops it and opens
another; after a restart of PostgreSQL every idle connection of the pool may fail, so a
loan may take as many tries as the pool has connections, and one more.
"""

from __future__ import annotations

import psycopg
from django.db.backends.postgresql import base

from mahjong.postgresql.pool_check import server_still_there


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        pool = self.pool
        if pool is None:
            return super().get_new_connection(conn_params)
        for _ in range(pool.max_size):
            connection = super().get_new_connection(conn_params)
            try:
                server_still_there(connection)
            except psycopg.OperationalError:
                pool.putconn(connection)  # closed by the check: the pool replaces it
                continue
            return connection
        return super().get_new_connection(conn_params)  # a new one, or the query says why
