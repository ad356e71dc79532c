"""The table at the four screens players hold (a phone upright and sideways, a tablet, a
desktop), measured mid-hand in chromium: the own hand is the largest row of tiles on the
screen and on screen without scrolling, each of its tiles a thumb's target at least 44px
tall, and nothing scrolls sideways. Sideways on a phone the hand's tiles are 48px and more."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import shot
from tests.e2e.test_table_play import take_turn, wait_for_change
from tests.e2e.tour import new_player_page, settle, sit_vs_bot

pytestmark = pytest.mark.e2e

SCREENS = {
    "phone": (390, 844),
    "phone-landscape": (844, 390),
    "tablet": (768, 1024),
    "desktop": (1440, 900),
}

MEASURE = """() => {
  const box = el => el.getBoundingClientRect();
  const own = [...document.querySelectorAll('#mj-hand .mj-own .tile')];
  const others = [...document.querySelectorAll('.mj-table .tile')]
    .filter(el => !own.includes(el) && !el.closest('.mj-status, .river-name, .mj-hint'))
    .map(el => [el.closest('[id]').id, box(el).width]);
  const row = box(document.querySelector('#mj-hand .mj-own'));
  return {hand: own.map(el => box(el).width), others,
          targets: [...document.querySelectorAll('#mj-hand .mj-own .tile-button')]
            .map(el => box(el).height),
          river: document.querySelectorAll('#mj-rivers .tile').length,
          sideways: document.scrollingElement.scrollWidth - innerWidth,
          bottom: row.bottom, height: innerHeight, scrollY: scrollY};
}"""


def my_turn(page) -> None:
    """Until the hand's tiles are buttons: this player's discard."""
    page.wait_for_selector("#mj-hand .mj-own .tile-button", timeout=30_000)


@pytest.fixture(scope="module")
def measured(browser, site, site_database):
    """One table against a bot, a few discards into its hand, measured at every screen."""
    with new_player_page(browser, site, site_database, "size") as (page, _name):
        sit_vs_bot(page)
        for _ in range(40):  # until both rivers hold a few tiles, the hand still on
            if (
                page.query_selector("[data-outcome]")
                or page.evaluate("document.querySelectorAll('#mj-rivers .tile').length") >= 6
            ):
                break
            if not take_turn(page):
                try:  # the bot's move (or the server's)
                    wait_for_change(page, timeout=2_000)
                except PlaywrightError:
                    pass  # the player's turn waits on a click: look again
        assert not page.query_selector("[data-outcome]"), "the hand ended before its middle"
        my_turn(page)
        found = {}
        for name, (width, height) in SCREENS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            settle(page)  # transitions the new size started have run their course
            found[name] = page.evaluate(MEASURE)
            shot(page, f"table-size-{name}")
        return found


@pytest.mark.parametrize("screen", SCREENS)
def test_the_own_hand_is_the_largest_row_of_tiles(measured, screen):
    m = measured[screen]
    assert m["river"] >= 6 and m["hand"], m
    largest_other = max(width for _where, width in m["others"])
    assert min(m["hand"]) > largest_other, (min(m["hand"]), m["others"])
    print(f"\n{screen}: hand {min(m['hand']):.1f}px, next largest {largest_other:.1f}px")


@pytest.mark.parametrize("screen", SCREENS)
def test_every_tile_of_the_hand_is_a_thumbs_target_and_nothing_scrolls_sideways(measured, screen):
    m = measured[screen]
    assert m["targets"] and min(m["targets"]) >= 44, m["targets"]
    assert m["sideways"] <= 0, m["sideways"]


@pytest.mark.parametrize("screen", SCREENS)
def test_the_hand_is_on_screen_without_scrolling(measured, screen):
    m = measured[screen]
    assert m["scrollY"] == 0 and m["bottom"] <= m["height"], (m["bottom"], m["height"])


def test_a_phone_held_sideways_has_tiles_of_48px(measured):
    assert min(measured["phone-landscape"]["hand"]) >= 48, measured["phone-landscape"]["hand"]
