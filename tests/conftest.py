"""Django-level fixtures shared by tests/web and later suites: a small named cast built
with the real service functions (registration, wallet), never with hand-made rows.

tests/engine never requests these, so engine tests stay database-free.
"""

import faulthandler
import sys

import pytest

PASSWORD = "tile-river-5m-7z"

# Debian's chromium, driven by Playwright (its own browser download is not used). Without
# the background-networking flags chromium keeps trying hosts this closed network refuses.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def builtin(db):
    """The data `make run` loads: rulesets, room tiers, rank levels, leaderboards, bots."""
    import io

    from django.core.management import call_command

    call_command("load_builtin", stdout=io.StringIO())


@pytest.fixture
def make_player(db):
    """make_player("name", beans=12_000): a registered player holding exactly `beans`."""
    from accounts import services, wallet

    def make(username, *, beans=None, nickname=""):
        user = services.register(username=username, password=PASSWORD, nickname=nickname)
        if beans is not None and beans != user.beans:
            wallet.adjust(
                user,
                beans - user.beans,
                note="test set-up",
                actor=None,
                key=f"test-setup:{user.public_id}",
            )
        user.refresh_from_db()
        return user

    return make


@pytest.fixture
def alice(builtin, make_player):
    return make_player("alice", beans=20_000, nickname="Alice")


@pytest.fixture
def bob(builtin, make_player):
    return make_player("bob", beans=20_000, nickname="Bob")


@pytest.fixture
def outsider(builtin, make_player):
    return make_player("carol", beans=20_000, nickname="Carol")


@pytest.fixture
def client_of(client):
    """client_of(user): a fresh test client logged in as that user."""
    from django.test import Client

    def make(user):
        c = Client()
        c.force_login(user)
        return c

    return make


@pytest.fixture
def htmx():
    """Headers that make the test client's request look like HTMX's."""

    def headers(target=None):
        h = {"HX-Request": "true"}
        if target:
            h["HX-Target"] = target
        return h

    return headers


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """The run ends even if a test left a thread that will not stop (an event loop whose
    close hangs, say): Python's exit waits for such a thread, and CI would wait for its
    time limit with nothing more said. Past EXIT_GRACE seconds every thread's stack is
    printed and the process exits with 1."""
    faulthandler.dump_traceback_later(EXIT_GRACE, exit=True, file=sys.__stderr__)


EXIT_GRACE = 120  # seconds for the interpreter's own exit: joins, atexit, servers stopping
