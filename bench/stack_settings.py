"""Settings of the benchmark stack (bench/stack.py): the product's settings plus two
bench-only changes, never used by the site itself.

* Queries are counted in every process: an execute wrapper on each new database
  connection adds to a per-process count, which a background thread adds to Redis
  (``bench:queries:<BENCH_ROLE>``, in the stack's own Redis database) twice a second.
  The load driver reads the totals before and after its window: queries per action;
  ``bench:queries:<role>:kinds`` counts them by statement and table.
* Passwords hash with MD5: the driver logs in hundreds of players through the real
  log-in form, and PBKDF2's deliberate cost per log-in is not what is measured.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections import Counter

from django.db.backends.signals import connection_created

from mahjong.settings import *  # noqa: F403
from mahjong.settings import REDIS_URL

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

ROLE = os.environ.get("BENCH_ROLE", "other")
FLUSH_EVERY = 0.5  # seconds


# "SELECT ... FROM "tables_hand"" -> "SELECT tables_hand": what the queries are, by kind
KIND = re.compile(r'^\s*(UPDATE|\w+\b.*?\b(?:FROM|INTO))\s+"(\w+)"', re.S)


@functools.lru_cache(maxsize=1024)  # a process runs a few dozen distinct statements
def kind_of(sql: str) -> str:
    found = KIND.match(sql)
    return f"{sql.split(None, 1)[0]} {found.group(2)}" if found else sql.split(None, 1)[0]


class QueryCounter:
    def __init__(self):
        self.lock = threading.Lock()
        self.pending = 0
        self.kinds: Counter = Counter()
        self.flusher_pid = None

    def __call__(self, execute, sql, params, many, context):
        with self.lock:
            self.pending += 1
            self.kinds[kind_of(sql)] += 1
            if self.flusher_pid != os.getpid():  # first query of this process (or fork)
                self.flusher_pid = os.getpid()
                threading.Thread(target=self.flush_loop, daemon=True).start()
        return execute(sql, params, many, context)

    def flush_loop(self):
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        key = f"bench:queries:{ROLE}"
        while True:
            threading.Event().wait(FLUSH_EVERY)
            with self.lock:
                delta, self.pending = self.pending, 0
                kinds, self.kinds = self.kinds, Counter()
            if delta:
                client.incrby(key, delta)
            for kind, n in kinds.items():
                client.hincrby(f"{key}:kinds", kind, n)


COUNTER = QueryCounter()


def _count_queries(sender, connection, **kwargs):
    if COUNTER not in connection.execute_wrappers:
        connection.execute_wrappers.append(COUNTER)


connection_created.connect(_count_queries, weak=False)
