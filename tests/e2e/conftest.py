"""End-to-end fixtures: the whole site as `make run` starts it (daphne + a Celery worker +
an embedded Redis) on a fixed test wall seed; Debian's chromium driven by Playwright.
Screenshots go to test-artifacts/ (gitignored).

The database follows the suite's: when DATABASE_URL names a PostgreSQL server (CI), the
site runs on a database of its own there, test_e2e_<run id>, created for the run and
dropped after it, so the production stack is exercised end to end; otherwise (a laptop)
a private SQLite file."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_FLAGS

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
# The players' simple strategy (win, pass claims, discard the drawn tile) is the engine's
# timeout play; on this wall it ends hand 1 in a self-drawn win (found with the engine).
TEST_SEED = "win254"
# Short timers so a whole hand and an idle player fit in a test (admin-style overrides).
FAST_TIMERS = {"decision": 5, "bot_delay": 0.3, "locked_delay": 0.3, "claim_pause": 0.3}
PASSWORD = "tile-river-5m-7z"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def _is_postgres(url: str) -> bool:
    return urlsplit(url).scheme in {"postgres", "postgresql"}


@contextmanager
def _database_url(workdir: Path):
    """The site's DATABASE_URL: a fresh PostgreSQL database on the suite's server when the
    suite runs on PostgreSQL (dropped at the end, connections and all), else SQLite."""
    server = os.environ.get("DATABASE_URL", "")
    if not _is_postgres(server):
        yield f"sqlite:///{workdir}/db.sqlite3"
        return
    import psycopg
    from psycopg import sql

    name = f"test_e2e_{uuid.uuid4().hex[:12]}"
    admin = urlunsplit(urlsplit(server)._replace(scheme="postgresql"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlunsplit(urlsplit(server)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@pytest.fixture(scope="package")
def site_database(tmp_path_factory):
    with _database_url(tmp_path_factory.mktemp("e2e-db")) as url:
        yield url


@pytest.fixture(scope="package")
def site(tmp_path_factory, site_database):
    """The base URL of a running site; stopped (the whole process group) at the end."""
    workdir = tmp_path_factory.mktemp("e2e-site")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "PORT", "HOST"}
    }
    env.update(
        DATABASE_URL=site_database,
        DEBUG="true",
        MAHJONG_TESTING="true",
        MAHJONG_TEST_SEED=TEST_SEED,
        # every browser test's players sign up from 127.0.0.1: the day's limit per address
        # (tests/web/test_accounts_views.py) would refuse the suite's eleventh
        SIGNUPS_PER_IP_PER_DAY="1000",
        PYTHONUNBUFFERED="1",
        DJANGO_SETTINGS_MODULE="mahjong.settings",
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run(
        [*manage, "migrate", "--noinput"], env=env, cwd=ROOT, check=True, capture_output=True
    )
    subprocess.run([*manage, "load_builtin"], env=env, cwd=ROOT, check=True, capture_output=True)
    subprocess.run(
        [
            *manage,
            "shell",
            "-c",
            "from catalogue.models import Ruleset; "
            "Ruleset.objects.filter(slug='classic')"
            f".update(overrides={{'timers': {FAST_TIMERS!r}}})",
        ],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    port = _free_port()
    log = (workdir / "site.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mahjong.run", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    try:
        while not (_up(f"{base}/healthz") and b" ready." in (workdir / "site.log").read_bytes()):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(
                    "the site did not start:\n"
                    + (workdir / "site.log").read_text(errors="replace")[-4000:]
                )
            time.sleep(0.3)
        yield base
    finally:
        if proc.poll() is None:
            proc.send_signal(2)  # Ctrl-C: mahjong.run stops daphne, celery, redis in order
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
        log.close()
        ARTIFACTS.mkdir(exist_ok=True)
        shutil.copy(workdir / "site.log", ARTIFACTS / "e2e-site.log")


# Package scope, not session: Playwright's sync API keeps an event loop running in this
# thread while it is open, and the Django and asyncio code of later packages (tests/faults,
# tests/load) must not run inside one.
@pytest.fixture(scope="package")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.fail("chromium is missing: `make test` installs Debian's chromium")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield _PolicyBypassingBrowser(b)
        b.close()


class _PolicyBypassingBrowser:
    """The browser, its contexts bypassing the site's Content-Security-Policy by default:
    Playwright's wait_for_function evaluates its predicate with eval, which the policy
    (script-src 'self') refuses. test_csp_browser.py opens its context with
    bypass_csp=False, to see the policy at work on the site's own scripts."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        return self._browser.new_context(**{"bypass_csp": True, **options})

    def __getattr__(self, name):
        return getattr(self._browser, name)


_signups = iter(range(10_000))


@pytest.fixture
def player(browser, site, request):
    """player("name"): a new browser context that signs up through the page."""
    contexts = []

    def make(prefix: str):
        name = f"{prefix}{os.getpid() % 1000}{next(_signups)}"
        context = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{site}/accounts/signup/")
        page.fill("input[name=username]", name)
        page.fill("input[name=nickname]", prefix.capitalize())
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.click("form button.primary")
        page.wait_for_url(f"{site}/")
        return page

    yield make
    for context in contexts:
        context.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


# A hand played to its end on the site, for the replay and fairness pages.
PLAY_A_HAND = """
from accounts import services as accounts
from accounts.models import User
from catalogue.models import Ruleset
from mahjong.tables import services
player = accounts.register(username="replayer{suffix}", password="tile-river-5m-7z")
bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
for attempt in range(20):  # a hand long enough to step through (most are)
    table = services.open_table(Ruleset.objects.get(slug="classic"), [player, bot],
                                bot_level="random")
    for _ in range(1000):
        hand = table.current_hand()
        if hand.ended_at:
            break
        services.advance(hand.pk, hand.version)
    moves = hand.events.filter(kind="action").count()
    if moves > 12:
        break
print(player.public_id, table.public_id, hand.number, moves)
"""


@pytest.fixture
def finished_hand(site, site_database):
    """(player's history path, replay path, number of the last step) of a hand played to
    its end on the site."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "MAHJONG_TEST_SEED"}}
    env.update(
        DATABASE_URL=site_database,
        DEBUG="true",
        MAHJONG_TESTING="true",
        DJANGO_SETTINGS_MODULE="mahjong.settings",
    )
    # a name of its own per use: two tests in one process each play a hand
    code = PLAY_A_HAND.format(suffix=f"{os.getpid()}{time.monotonic_ns() % 10**6}")
    out = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", code],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    player, table, number, moves = out.stdout.split()[-4:]
    return (f"/history/players/{player}/", f"/history/hands/{table}/{number}/replay/", int(moves))
