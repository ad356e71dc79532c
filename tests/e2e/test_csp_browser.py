"""The Content-Security-Policy refuses nothing the site's own pages do: chromium reports
no violation on the pages a player goes through, the table's socket included, and the
scripts that replaced inline ones still work (issue 30, item 8)."""

from __future__ import annotations

import time

import pytest

from tests.e2e.tour import log_in_new_player, sit_vs_bot

pytestmark = pytest.mark.e2e


def watch_for_violations(page) -> list[str]:
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return refused


@pytest.fixture
def page(browser):
    """A page that keeps to the policy: the other tests' pages bypass it (conftest.py), and
    this one uses no wait_for_function, whose eval the policy refuses."""
    context = browser.new_context(bypass_csp=False, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_no_page_a_player_goes_through_breaks_the_policy(page, site, site_database):
    refused = watch_for_violations(page)
    log_in_new_player(page, site, site_database, f"csp{time.time_ns() % 10**7:07d}")
    for path in ("/", "/leaderboards/", "/rules/", "/tiles/", "/accounts/profile/"):
        page.goto(f"{site}{path}")
        page.wait_for_load_state("load")
    page.goto(f"{site}/rules/gb/calculator/")
    page.fill("#id_hand", "123m456m789m1155z")
    page.fill("#id_win", "5z")
    page.press("#id_win", "Enter")  # an htmx swap
    page.wait_for_selector("[data-testid=calc-result] li[data-fan]")
    page.goto(f"{site}/")
    sit_vs_bot(page)  # the table's page, its socket open (table.js says so)
    # the language menu, a script file now, still sends the page's address
    page.select_option("select[name=language]", "zh-hans")
    page.wait_for_selector("html[lang=zh-hans]")
    assert "/tables/" in page.url
    assert refused == []
