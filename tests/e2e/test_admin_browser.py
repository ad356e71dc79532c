"""The operator's admin in chromium on a 1280x800 laptop: the lists an operator works in
every day fit the screen's width, with no column cut off behind a sideways scroll."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import PASSWORD, shot
from tests.e2e.tour import site_shell

OPERATOR = "operator1280"
MAKE_OPERATOR = (
    "from accounts.models import User; "
    f"User.objects.filter(username={OPERATOR!r}).exists() or "
    f"User.objects.create_superuser({OPERATOR!r}, password={PASSWORD!r})"
)

# How far the page, and the changelist's results box, scroll sideways.
SCROLLS = """() => {
  const results = document.querySelector('#changelist .results');
  return {page: document.scrollingElement.scrollWidth - window.innerWidth,
          results: results ? results.scrollWidth - results.clientWidth : null};
}"""

LISTS = {
    "room tiers": "/admin/lobby/roomtier/",
    "rulesets": "/admin/lobby/ruleset/",
    "leaderboards": "/admin/lobby/leaderboard/",
    "players": "/admin/accounts/user/",
    "tables": "/admin/tables/table/",
}


@pytest.fixture
def operator_page(browser, site, site_database):
    site_shell(site_database, MAKE_OPERATOR)
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{site}/admin/login/")
        page.fill("#id_username", OPERATOR)
        page.fill("#id_password", PASSWORD)
        page.click("input[type=submit]")
        page.wait_for_selector("#user-tools")
        yield page
    finally:
        context.close()


@pytest.mark.parametrize("name", LISTS)
def test_an_admin_list_fits_a_1280px_screen(operator_page, site, name):
    page = operator_page
    page.goto(f"{site}{LISTS[name]}")
    page.wait_for_selector("#changelist")
    shot(page, f"admin-{name.replace(' ', '-')}-1280")
    scrolls = page.evaluate(SCROLLS)
    print(f"\n{name}: {scrolls}")
    assert scrolls["page"] <= 0, scrolls
    assert scrolls["results"] is None or scrolls["results"] <= 0, scrolls
