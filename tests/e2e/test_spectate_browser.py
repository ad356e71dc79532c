"""Spectating in a real browser: a third user opens the live-tables list, watches a
player's bot table, sees the rivers grow move by move, never a concealed tile, and both
hands when the hand ends; the player's page counts one spectator, then none. Every
message the watcher's socket delivers is recorded in the page (htmx:wsBeforeMessage) and
checked, not only what was on screen when we looked."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import shot
from tests.e2e.test_table_play import ended, take_turn, wait_for_change
from tests.e2e.tour import sit_vs_bot

pytestmark = pytest.mark.e2e

RECORD = """
window.__watched = [];
document.addEventListener("htmx:wsBeforeMessage", function (e) {
  window.__watched.push(e.detail.message);
});
"""
TILE = re.compile(r'data-tile="(\w+)"')


def concealed(html: str, seat: int) -> list[str]:
    area = html.split(f'data-seat="{seat}"', 1)[1]
    return TILE.findall(area.split('class="concealed row"', 1)[1].split('class="melds"', 1)[0])


PAGE_WIDTH = "document.documentElement.scrollWidth"


def river_tiles(html: str) -> int:
    return sum(len(TILE.findall(r)) for r in re.findall(r'data-river="\d">(.*?)</div>', html, re.S))


def test_a_third_user_watches_a_bot_table_live_and_sees_the_hands_only_at_the_end(player, site):
    pat = player("pat")
    sit_vs_bot(pat)
    table_id = re.search(r"/tables/(\w+)/$", pat.url).group(1)

    eve = player("eve")
    eve.context.add_init_script(RECORD)
    eve.click("[data-testid=live-tables-link]")
    eve.wait_for_url(f"{site}/tables/live/")
    eve.click(f'tr[data-table="{table_id}"] a')  # quoted: an id may start with a digit
    eve.wait_for_url(f"{site}/tables/{table_id}/watch/")
    eve.wait_for_function("window.__watched.length > 0")  # the socket's snapshot
    shot(eve, "watch-start")
    # the page's heading is for screen readers only (.sr-only was in the table's stylesheet)
    assert eve.evaluate("document.querySelector('h1.sr-only').getBoundingClientRect().width") <= 1
    pat.wait_for_selector("[data-testid=watchers]:visible", timeout=10_000)
    assert re.search(r"\b1\b", pat.inner_text("[data-testid=watchers]"))  # 1 人观战
    eve.set_viewport_size({"width": 360, "height": 740})
    widths = [eve.evaluate(PAGE_WIDTH)]

    deadline = time.monotonic() + 180
    while not ended(pat):
        assert time.monotonic() < deadline, "the hand did not end in time"
        if not take_turn(pat):
            try:  # the bot's move (or the server's), a new view to measure
                wait_for_change(pat, timeout=2_000)
            except PlaywrightError:
                pass  # the player's turn waits on a click: look again
        widths.append(eve.evaluate(PAGE_WIDTH))
    eve.wait_for_selector("[data-outcome]", timeout=20_000)
    shot(eve, "watch-end")

    messages = eve.evaluate("window.__watched")
    during = [m for m in messages if "data-outcome" not in m]
    after = [m for m in messages if "data-outcome" in m]
    assert len(during) > 5 and after
    for message in during:  # backs only, for both players, until the hand is over
        assert set(concealed(message, 0) + concealed(message, 1)) <= {"back"}
    rivers = [river_tiles(m) for m in during]
    assert rivers[-1] > rivers[0] and len(set(rivers)) > 3  # they grew move by move
    final = after[-1]
    for seat in (0, 1):
        shown = concealed(final, seat)
        assert shown and "back" not in shown
    # and on screen: both hands face up, the seed revealed
    for seat in (0, 1):
        tiles = eve.eval_on_selector_all(
            f"[data-seat='{seat}'] .concealed [data-tile]", "els => els.map(e => e.dataset.tile)"
        )
        assert tiles and "back" not in tiles
    assert re.fullmatch(r"[0-9a-f]{16,}", eve.inner_text("#mj-watch-result code"))
    # watched on a 360px phone, the hands, melds and the seed wrap: no sideways scrolling
    assert max(widths) <= 360 and eve.evaluate(PAGE_WIDTH) <= 360, widths
    eve.goto(f"{site}/")  # the spectator leaves: the player's count goes
    pat.wait_for_selector("[data-testid=watchers]", state="hidden", timeout=10_000)


CLOSES = """
window.__closes = [];
document.addEventListener("htmx:wsClose", function (e) {
  window.__closes.push(e.detail.event.code);
});
"""


def test_a_watch_tab_past_the_accounts_cap_says_why_and_does_not_reconnect(player, site):
    """Issue 30 item 4: the tab past TABLES_WATCH_SOCKETS_PER_ACCOUNT shows the server's
    reason and keeps its socket closed (4429 is not one of the codes htmx retries)."""
    from django.conf import settings

    pat = player("tia")  # nicknames are unique: not the first test's
    sit_vs_bot(pat)
    table_id = re.search(r"/tables/(\w+)/$", pat.url).group(1)
    eve = player("ivy")
    eve.context.add_init_script(RECORD + CLOSES)
    url = f"{site}/tables/{table_id}/watch/"
    for _ in range(settings.TABLES_WATCH_SOCKETS_PER_ACCOUNT):
        tab = eve.context.new_page()
        tab.goto(url)
        tab.wait_for_function("window.__watched.length > 0")  # admitted: its snapshot
    eve.goto(url)
    eve.wait_for_function("window.__closes.length > 0")
    assert "too many tabs" in eve.inner_text("#mj-watch-notice")
    assert eve.evaluate("window.__closes") == [4429]
    assert "mj-watch-status" not in "".join(eve.evaluate("window.__watched"))  # no view
