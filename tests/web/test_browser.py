"""Two real browsers (Debian's chromium driven by Playwright) meet through quick match.

This is what the test client cannot show: the vendored htmx loads, its polling runs,
hx-post forms swap their fragment in place, and HX-Redirect moves the waiting player to
the match page without a reload.
"""

import re
import shutil

import pytest
from django.db import connections

from mahjong.tables.models import Match
from tests.conftest import CHROMIUM, CHROMIUM_FLAGS, PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(monkeypatch):
    playwright = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        pytest.fail("chromium is missing: `make test` installs Debian's chromium")
    # Playwright's sync API keeps an event loop in this thread; the ORM calls the test
    # makes between browser steps are ordinary blocking calls, not async code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield b
        b.close()
        # Playwright's greenlet gives the test body its own context, and Django's
        # connections are per context: close the one the test's ORM calls opened, or
        # PostgreSQL refuses to drop the test database at the end of the session.
        connections.close_all()


def log_in(browser, base, username):
    page = browser.new_context(locale="en-US").new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button.primary")
    page.wait_for_url(f"{base}/")
    return page


def test_two_browsers_are_paired_and_the_waiting_one_follows_by_htmx(
    browser, live_server, alice, bob
):
    base = live_server.url
    a = log_in(browser, base, "alice")
    b = log_in(browser, base, "bob")

    a.click("#tier-novice button")
    a.wait_for_url(re.compile(r"/queue/\w+/$"))
    # The live count of the others waiting comes from the polled fragment: none yet.
    a.wait_for_selector('#queue-status .big[data-others="0"]')

    b.click("#tier-novice button")
    b.wait_for_url(re.compile(r"/matches/\w+/$"))
    match = Match.objects.get()
    assert b.url == f"{base}{match.get_absolute_url()}"

    # Alice never reloads: her next poll answers HX-Redirect.
    a.wait_for_url(f"{base}{match.get_absolute_url()}", timeout=10_000)
    assert "Alice" in a.inner_text(".versus") and "Bob" in a.inner_text(".versus")


def test_a_waiting_player_can_cancel(browser, live_server, alice):
    base = live_server.url
    a = log_in(browser, base, "alice")
    a.click("#tier-novice button")
    a.wait_for_url(re.compile(r"/queue/\w+/$"))
    a.click("form[action$='/cancel/'] button")
    a.wait_for_url(f"{base}/")
    assert "You left the queue." in a.inner_text("#messages")
    assert alice.queue_tickets.get().state == "cancelled"


def test_a_friend_joins_a_private_room_by_code_and_the_host_follows(
    browser, live_server, alice, bob
):
    base = live_server.url
    host = log_in(browser, base, "alice")
    host.goto(f"{base}/rooms/new/")
    host.click("form button.primary")
    host.wait_for_url(re.compile(r"/rooms/[A-Z0-9]{6}/$"))
    code = host.inner_text(".code")
    assert host.input_value("input.share") == f"{base}/rooms/{code}/"

    guest = log_in(browser, base, "bob")
    # The code form posts with hx-post and answers with HX-Redirect.
    guest.fill("#join-code input[name=code]", code.lower())
    guest.click("#join-code button")
    guest.wait_for_url(f"{base}/rooms/{code}/")
    guest.click("#room-status button.primary")
    guest.wait_for_url(re.compile(r"/matches/\w+/$"))
    host.wait_for_url(guest.url, timeout=10_000)
    assert "Unranked" in host.inner_text("main")


def test_a_wrong_code_is_explained_in_place(browser, live_server, alice):
    base = live_server.url
    page = log_in(browser, base, "alice")
    page.fill("#join-code input[name=code]", "ZZZZZZ")
    page.focus("#join-code button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#join-code .error")
    assert "ZZZZZZ" in page.inner_text("#join-code .error")
    assert page.url == f"{base}/"
    # the swapped form's button has the focus again (it fell to the page's body)
    assert page.evaluate("document.activeElement.id") == "join-code-button"


def test_a_keyboard_users_focus_survives_the_lobbys_refresh(browser, live_server, alice):
    """The room list is swapped every 5 seconds: a Quick match button focused from the
    keyboard was replaced and the focus fell to the page's body."""
    page = log_in(browser, live_server.url, "alice")
    page.focus("#tier-novice button")
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "tiers"):
        pass  # a refresh has swapped the list
    page.wait_for_timeout(200)
    assert page.evaluate("document.activeElement.id") == "quick-novice"


def test_the_hosts_share_link_stays_selected_while_the_room_waits(browser, live_server, alice):
    """The host's page polls every 2 seconds for the friend: each poll re-rendered the
    share link, so a host selecting it to copy lost the selection and the focus."""
    host = log_in(browser, live_server.url, "alice")
    host.goto(f"{live_server.url}/rooms/new/")
    host.click("form button.primary")
    host.wait_for_url(re.compile(r"/rooms/[A-Z0-9]{6}/$"))
    host.click("input.share")  # selects the whole link
    link = host.input_value("input.share")
    with host.expect_response(re.compile(r"/rooms/[A-Z0-9]{6}/$")) as polled:
        pass
    assert polled.value.status == 204  # nothing changed: nothing swapped
    host.wait_for_timeout(200)
    assert host.evaluate("document.activeElement.className") == "share"
    assert (
        host.evaluate(
            "String(window.getSelection()) || document.activeElement.value.slice("
            "document.activeElement.selectionStart,"
            " document.activeElement.selectionEnd)"
        )
        == link
    )

    # the spectators' switch, pressed from the keyboard, keeps the focus when it swaps itself
    host.focus("[data-testid=room-spectators]")
    host.keyboard.press("Enter")
    host.wait_for_selector("[data-testid=spectators-state]:has-text('closed to spectators')")
    assert host.evaluate("document.activeElement.id") == "room-spectators-button"
