"""The table's motion (static/tables/motion.js), watched in chromium: a discard travels to
the river, a call shows large over its seat, a win turns its hand up and counts its
points; every such animation ends within 300 ms; and with the browser's reduced-motion
setting, or the table's Motion switch off, nothing on the table moves at all.

What moved is read from the page's own animation list (``document.getAnimations()``,
CSS and script animations and transitions alike), recorded on every frame from before
the click until the push has settled, so a short animation cannot slip between looks."""

from __future__ import annotations

import time

import pytest

from tests.e2e.test_table_layout import WIN_ON_THE_FIRST_DRAW
from tests.e2e.test_table_play import version
from tests.e2e.tour import (
    log_in,
    log_in_new_player,
    players_at_scripted_tables,
    sit_vs_bot,
    wait_for_socket,
)

pytestmark = pytest.mark.e2e

BUDGET_MS = 300

# Every animation that starts on the table from now on: its target, kind, name and end.
RECORD = """() => {
  window.__moved = []; window.__recording = true;
  const seen = new Set();
  const look = () => {
    for (const a of document.getAnimations()) {
      if (seen.has(a)) continue;
      seen.add(a);
      const el = a.effect && a.effect.target;
      if (!el || !el.closest || !el.closest('.mj-table')) continue;
      const timing = a.effect.getComputedTiming();
      window.__moved.push({
        kind: a.constructor.name, name: a.animationName || a.transitionProperty || '',
        where: el.closest('[id]') ? el.closest('[id]').id : '',
        river: el.closest('.river.me') ? 'me' : el.closest('.river.opp') ? 'opp' : '',
        cls: String(el.className), end: timing.endTime, iterations: timing.iterations});
    }
    if (window.__recording) requestAnimationFrame(look);
  };
  look();
}"""
STOP = "() => { window.__recording = false; return window.__moved; }"

# Every call's word as it is added (it stays a second: a look after the push could miss
# it on a slow machine): the call, its text, its seat and whether it lies inside the seat.
WATCH_CALLS = """() => {
  window.__calls = [];
  new MutationObserver(records => {
    for (const r of records) for (const el of r.addedNodes) {
      if (!el.classList || !el.classList.contains('mj-call')) continue;
      const box = el.getBoundingClientRect(), seat = el.parentElement.getBoundingClientRect();
      window.__calls.push({call: el.dataset.call, text: el.textContent, seat: el.parentElement.id,
        hidden: el.getAttribute('aria-hidden'),
        inside: seat.left <= box.left && box.right <= seat.right});
    }
  }).observe(document.querySelector('.mj-table'), {subtree: true, childList: true});
}"""


def first_call(page) -> dict:
    page.wait_for_function("window.__calls.length > 0", timeout=5_000)
    return page.evaluate("window.__calls[0]")


def moves(animations: list[dict]) -> list[dict]:
    """The animations of moves: not a signal that repeats (the latest discard's pulse)."""
    return [a for a in animations if a["iterations"] == 1]


def my_discard(page) -> int:
    """Wait for this player's discard, record, click the drawn tile (else the last one)."""
    page.wait_for_selector("#mj-hand .mj-own .tile-button", timeout=30_000)
    page.evaluate(RECORD)
    before = version(page)
    drawn = page.query_selector("#mj-hand button[data-drawn]")
    (drawn or page.query_selector_all("#mj-hand button[data-action^='discard ']")[-1]).click()
    page.wait_for_function(
        f"Number(document.querySelector('#mj-status').dataset.version) > {before}"
    )
    return before


def recorded_until_settled(page, seconds: float = 0.6) -> list[dict]:
    time.sleep(seconds)
    return page.evaluate(STOP)


@pytest.fixture
def player_page(browser, site, site_database):
    contexts = []

    def open_page(prefix: str, **options):
        context = browser.new_context(
            locale="en-US", viewport={"width": 390, "height": 844}, **options
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        name = f"{prefix}{int(time.time() * 1000) % 10**7:07d}"
        log_in_new_player(page, site, site_database, name)
        return page

    yield open_page
    for context in contexts:
        context.close()


def test_a_discard_travels_to_the_river_and_every_move_animation_ends_in_300_ms(player_page):
    page = player_page("move")
    sit_vs_bot(page)
    my_discard(page)
    # the bot's answer (its discard, or a claim) comes within the same recording
    page.wait_for_function(
        "document.querySelectorAll('#mj-rivers .river.opp .tile').length > 0"
        " || !!document.querySelector('[data-outcome]')"
        " || !!document.querySelector('#mj-opponent .meld')",
        timeout=20_000,
    )
    moved = recorded_until_settled(page)
    print(moved)
    travelled = [a for a in moved if a["kind"] == "Animation" and a["river"] == "me"]
    assert travelled, moved
    if page.query_selector("#mj-rivers .river.opp .latest .tile"):
        assert [a for a in moved if a["kind"] == "Animation" and a["river"] == "opp"], moved
    assert [a for a in moves(moved) if a["end"] > BUDGET_MS] == [], moved


@pytest.mark.parametrize("how", ["reduced-motion", "motion-switch"])
def test_reduced_motion_or_the_switch_off_moves_nothing_on_the_table(player_page, how):
    if how == "reduced-motion":
        page = player_page("still", reduced_motion="reduce")
        sit_vs_bot(page)
    else:
        page = player_page("calm")
        sit_vs_bot(page)
        page.click('.mj-tools [data-pref="motion_on"]')
        assert page.get_attribute(".mj-table", "data-motion") == "off"
    for _ in range(2):  # two of the player's discards and what the bot did meanwhile
        my_discard(page)
        moved = recorded_until_settled(page, 1.0)
        assert moved == [], moved
        if page.query_selector("[data-outcome]"):
            break
    if how == "motion-switch":  # remembered on the account: still off after a reload
        page.reload()
        wait_for_socket(page)
        assert page.get_attribute('.mj-tools [data-pref="motion_on"]', "aria-pressed") == "false"
        assert page.get_attribute(".mj-table", "data-motion") == "off"


def scripted_page(browser, site, site_database, prefix: str, script: dict, viewport=None):
    name = f"{prefix}{int(time.time() * 1000) % 10**7:07d}"
    (table,) = players_at_scripted_tables(site_database, [name], **script)
    context = browser.new_context(
        locale="zh-CN", viewport=viewport or {"width": 390, "height": 844}
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, site, name)
    page.goto(f"{site}/tables/{table}/")
    wait_for_socket(page)
    return context, page


def test_a_win_is_called_large_and_reveals_its_fans_and_points_within_300_ms(
    browser, site, site_database
):
    context, page = scripted_page(browser, site, site_database, "reveal", WIN_ON_THE_FIRST_DRAW)
    try:
        page.evaluate(RECORD)
        page.evaluate(WATCH_CALLS)
        page.click('#mj-prompt [data-action="hu"]')
        page.wait_for_selector("[data-outcome]")
        call = first_call(page)
        assert (call["call"], call["text"], call["seat"]) == ("self_draw", "自摸", "mj-hand")
        assert call["hidden"] == "true"
        moved = recorded_until_settled(page)
        print(moved)
        fans = page.query_selector_all("#mj-result tr[data-fan]")
        assert fans
        assert len(
            [a for a in moved if a["kind"] == "Animation" and a["where"] == "mj-result"]
        ) >= len(fans)
        assert [a for a in moves(moved) if a["end"] > BUDGET_MS] == [], moved
        points = page.query_selector(".settlement b[data-delta]")
        assert points.inner_text() == points.get_attribute("data-delta")  # counted up to it
        page.wait_for_selector("#mj-hand .mj-call", state="detached", timeout=3_000)
    finally:
        context.close()


# The player deals holding four 1m and a ready hand: the first decision offers a concealed
# kong and 报听.
KONG_OR_READY_AT_ONCE = {
    "dealer": 0,
    "dealer_hand": "1111m234567m1122z",
    "other_hand": "888999m334455z6z",
    "draws": "7z",
}


@pytest.mark.parametrize("verb, word", [("ankan", "杠"), ("ting", "报听")])
def test_a_call_is_shown_large_over_the_seat_that_made_it(browser, site, site_database, verb, word):
    context, page = scripted_page(
        browser,
        site,
        site_database,
        verb,
        KONG_OR_READY_AT_ONCE,
        viewport={"width": 1440, "height": 900},
    )
    try:
        page.evaluate(WATCH_CALLS)
        page.click(f'#mj-prompt [data-verb="{verb}"] >> nth=0')
        call = first_call(page)
        assert (call["call"], call["text"], call["seat"]) == (verb, word, "mj-hand")
        assert call["inside"], call
    finally:
        context.close()
