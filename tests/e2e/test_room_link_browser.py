"""A private room's Copy link button in a real browser: it puts the room's full URL on the
clipboard and says so in its live region; where the clipboard API is missing, the link is
selected (and copied the old way if the browser lets it) and the region says which."""

from __future__ import annotations

import re

import pytest

from tests.e2e.tour import BLOCKING, axe_scan

pytestmark = pytest.mark.e2e

SELECTED = "The link is selected: press Ctrl+C (⌘C on a Mac) to copy it."


def _new_room(host, site) -> None:
    host.goto(f"{site}/rooms/new/")
    host.click("form button.primary")
    host.wait_for_url(re.compile(r"/rooms/\w+/$"))


def _status(page) -> str:
    page.wait_for_function("document.getElementById('room-share-status').textContent !== ''")
    return page.inner_text("#room-share-status")


def test_copy_link_puts_the_rooms_url_on_the_clipboard_and_says_so(player, site):
    host = player("rina")
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    _new_room(host, site)
    button = host.get_by_role("button", name="Copy link")
    assert button.is_visible()
    button.click()
    assert _status(host) == "Link copied."
    assert host.evaluate("navigator.clipboard.readText()") == host.url
    # the button, the field and the confirmation as axe reads them (label-in-name, contrast)
    assert [v for v in axe_scan(host) if v["impact"] in BLOCKING] == []


def test_without_the_clipboard_api_the_link_is_selected_for_the_player(player, site):
    host = player("hiro")
    host.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    _new_room(host, site)
    host.get_by_role("button", name="Copy link").click()
    assert _status(host) in ("Link copied.", SELECTED)  # as document.execCommand could
    selected = host.evaluate(
        "(() => { const f = document.activeElement;"
        " return [f.id, f.selectionStart, f.selectionEnd, f.value.length]; })()"
    )
    assert selected == ["room-share", 0, len(host.url), len(host.url)]
