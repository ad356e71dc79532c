"""The operator's admin in chromium on a 1280x800 laptop: the lists an operator works in
every day fit the screen's width, with no column cut off behind a sideways scroll; a ban
made there reaches the player's open table at once."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import PASSWORD, shot
from tests.e2e.tour import sit_vs_bot, site_shell

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
    "room tiers": "/admin/catalogue/roomtier/",
    "rulesets": "/admin/catalogue/ruleset/",
    "leaderboards": "/admin/catalogue/leaderboard/",
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


def test_a_player_banned_at_a_table_is_told_why_at_once(operator_page, player, site):
    """The operator bans a player in the middle of a hand against a bot: the table's page
    does not sit on a clock at 0 s, it lands at once on the log-in page that gives the
    reason (the socket closes with 4401, table.js reloads, the server says why)."""
    page = player("banme")
    sit_vs_bot(page)
    table_url = page.url
    admin = operator_page
    admin.goto(f"{site}/admin/accounts/user/?q=Banme")
    admin.click("#result_list tbody tr:first-child th a")
    admin.uncheck("#id_is_active")
    admin.fill("#id_ban_reason", "bean farming with a second account")
    admin.click("input[name=_save]")
    admin.wait_for_selector(".messagelist .success")
    page.wait_for_url(lambda url: url != table_url, timeout=10_000)
    assert "/accounts/login/" in page.url
    assert "This account is banned: bean farming with a second account" in page.inner_text("body")
    shot(page, "banned-at-table")
