"""A finished hand's page checks its own commitment with WebCrypto (issue 30 item 9):
"verified" on the hand as played, "does not match" when the page is given another
commitment, in a real browser."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import shot

pytestmark = pytest.mark.e2e

CHECK = "[data-testid=browser-check]"


def test_the_hand_page_verifies_its_commitment_in_the_browser(browser, site, finished_hand):
    _history, replay, _moves = finished_hand
    hand_page = site + replay.removesuffix("replay/")
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(hand_page)
        page.wait_for_selector(f"{CHECK}[data-state]")
        assert page.get_attribute(CHECK, "data-state") == "ok"
        assert page.inner_text(CHECK).startswith("✔ Verified in your browser")
        shot(page, "history-hand-verified")

        def tampered(route):
            html = route.fetch().text()
            html = re.sub(
                r'data-commitment="[0-9a-f]{64}"', 'data-commitment="' + "0" * 64 + '"', html
            )
            route.fulfill(body=html, content_type="text/html; charset=utf-8")

        page.route(hand_page, tampered)
        page.goto(hand_page)
        page.wait_for_selector(f"{CHECK}[data-state]")
        assert page.get_attribute(CHECK, "data-state") == "bad"
        assert page.inner_text(CHECK).startswith("✘ Does not match")
    finally:
        context.close()
