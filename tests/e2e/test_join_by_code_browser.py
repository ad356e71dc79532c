"""Joining a private room by its code from the lobby's box in a real browser: the page
ends on the room's own URL (it showed the room while the address stayed /, so a reload
or a bookmark went back to the lobby), and a bad code is told in the box, on the lobby."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.e2e


def test_a_code_typed_in_the_lobby_ends_on_the_rooms_own_url(player, site):
    host = player("hana")
    host.goto(f"{site}/rooms/new/")
    host.click("form button.primary")
    host.wait_for_url(re.compile(r"/rooms/\w+/$"))
    code = re.search(r"/rooms/(\w+)/$", host.url).group(1)

    guest = player("gus")
    guest.fill("#join-code input[name=code]", "ZZZZZZ")
    guest.click("#join-code button")
    guest.wait_for_selector("#join-code .error")
    assert guest.url == f"{site}/" and "ZZZZZZ" in guest.inner_text("#join-code .error")

    guest.fill("#join-code input[name=code]", code.lower())
    guest.press("#join-code input[name=code]", "Enter")  # the swapped-in form, by the key
    guest.wait_for_url(f"{site}/rooms/{code}/")
    assert guest.locator("#join-code").count() == 0  # the room's page, not the lobby's box
    guest.reload()
    assert guest.url == f"{site}/rooms/{code}/"
