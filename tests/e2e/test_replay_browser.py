"""A finished hand's replay (牌谱) in a real browser: the arrow keys, Home and End step
through it, the URL follows the step (shareable), and auto-play (space) runs to the end
and stops there. The hand is played on the site's own database through tables.services,
as a bot table's timers would play it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import shot

pytestmark = pytest.mark.e2e


def step_of(page) -> int:
    return int(page.get_attribute("#replay-board", "data-step"))


def wait_for_step(page, step: int, timeout=10_000) -> None:
    """Until the board of that step has settled: htmx binds the new links only when the
    settle ends (20 ms after the swap), and a link pressed before that is followed as a
    plain link, a whole page load that drops the focus (a CI run failed on it)."""
    page.wait_for_function(
        "step => (b => b && b.dataset.step === String(step)"
        " && !b.classList.contains('htmx-settling'))(document.querySelector('#replay-board'))",
        arg=step,
        timeout=timeout,
    )


def test_keys_step_through_the_replay_and_autoplay_reaches_the_end(browser, site, finished_hand):
    history, path, last = finished_hand
    assert last > 10
    context = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{site}{history}")  # the player's games, public: the replay is linked
        shot(page, "history-list")
        page.click(f'a[href="{path}"]')
        page.wait_for_selector("#replay-board")
        # the board is there while the page still parses; replay.js (deferred) listens for
        # keys once it has run: a key pressed before that went nowhere (a flaky failure)
        page.wait_for_load_state("domcontentloaded")
        assert step_of(page) == 0
        assert page.get_attribute("#replay-board", "data-last") == str(last)

        page.keyboard.press("ArrowRight")
        wait_for_step(page, 1)
        assert page.url.endswith("?step=1")  # the address to share follows the step
        page.keyboard.press("ArrowRight")
        wait_for_step(page, 2)
        page.keyboard.press("ArrowLeft")
        wait_for_step(page, 1)
        for _ in range(3):  # quicker than the server answers: each press is one step
            page.keyboard.press("ArrowRight")
        wait_for_step(page, 4)
        # settled at 4 with nothing more on its way: replay.js sends a queued key the moment
        # a board settles, so a fifth step would be in flight by now
        expect(page).to_have_url(re.compile(r"\?step=4$"))
        assert page.query_selector(".htmx-request") is None
        assert step_of(page) == 4 and page.url.endswith("?step=4")
        page.keyboard.press("End")
        wait_for_step(page, last)
        assert page.query_selector("[data-outcome]") is not None
        page.keyboard.press("Home")
        wait_for_step(page, 0)
        shot(page, "replay-deal")

        page.goto(f"{site}{path}?step={last - 8}")  # a shared link opens at its step
        assert step_of(page) == last - 8
        page.select_option("#replay-speed", "250")
        page.keyboard.press(" ")
        assert page.get_attribute("#replay-play", "aria-pressed") == "true"
        wait_for_step(page, last, timeout=30_000)
        page.wait_for_function(
            "document.querySelector('#replay-play').getAttribute('aria-pressed') === 'false'"
        )
        assert page.url.endswith(f"?step={last}")
        shot(page, "replay-end")

        page.click(".replay-end a")  # the hand page, then its fairness check
        page.wait_for_selector("[data-commitment]")
        shot(page, "history-hand")
        page.click(".fairness a.button")
        page.wait_for_selector(".verdict")
        assert page.get_attribute(".verdict", "data-ok") == "true"
        shot(page, "history-verify")

        page.goto(f"{site}{path}?step={last}")
        page.keyboard.press(" ")  # play again from the deal, then pause
        wait_for_step(page, 1, timeout=10_000)
        page.keyboard.press(" ")
        paused = step_of(page)
        expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
        # A step not taken raises no event: a paused replay must stay put for three of its
        # 250 ms ticks, so this wait is time itself.
        page.wait_for_timeout(800)
        assert step_of(page) <= paused + 1  # at most the step already asked for
    finally:
        context.close()


def test_the_play_button_works_after_the_browsers_back(browser, site, finished_hand):
    """Back restores the replay from htmx's history cache as new elements: the Play button
    and the speed select must still work (their listeners were on the old elements)."""
    _history, path, last = finished_hand
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{site}{path}")
        page.wait_for_load_state("domcontentloaded")
        page.click("[data-nav=next]")
        wait_for_step(page, 1)
        page.click("[data-nav=next]")
        wait_for_step(page, 2)
        page.go_back()
        wait_for_step(page, 1)
        page.select_option("#replay-speed", "250")
        page.click("#replay-play")
        assert page.get_attribute("#replay-play", "aria-pressed") == "true"
        wait_for_step(page, 3)
        page.click("#replay-play")
        assert page.get_attribute("#replay-play", "aria-pressed") == "false"
    finally:
        context.close()


def test_a_longest_name_fits_the_replay_and_the_hand_page_on_a_phone(
    browser, site, site_database, finished_hand
):
    """The player's name 24 Ws (the widest a nickname may be): the replay's seat heading
    and the hand page's final hands break it. Whole, the replay was 478px wide on a 390px
    phone and the hand page 536px."""
    from tests.e2e.test_page_overflow import LANGUAGES, PHONES, measure, problems
    from tests.e2e.tour import site_shell

    history, path, _last = finished_hand
    public_id = history.rstrip("/").rsplit("/", 1)[-1]
    site_shell(
        site_database,
        f"from accounts.models import User; User.objects.filter("
        f"public_id={public_id!r}).update(nickname={'W' * 24!r})",
    )
    hand_page = path.removesuffix("replay/")
    for width, height in PHONES.items():
        for language, locale in LANGUAGES.items():
            context = browser.new_context(
                locale=locale, viewport={"width": width, "height": height}
            )
            context.add_cookies([{"name": "django_language", "value": language, "url": site}])
            try:
                page = context.new_page()
                for url in (f"{site}{path}?step=3", f"{site}{hand_page}"):
                    page.goto(url)
                    assert "W" * 24 in page.inner_text("main")
                    m = measure(page)
                    assert m["lang"] == language
                    assert problems(m) == [], url
            finally:
                context.close()


FOCUSED = "document.activeElement && document.activeElement.id"


def test_the_focus_stays_on_the_step_button_a_keyboard_user_pressed(browser, site, finished_hand):
    """Tab to Next, Enter: the board is swapped and the focus fell to the page's body, so
    the next Tab went to the skip link at the top and a keyboard or screen reader user
    tabbed through the header for every step. It now stays on Next, and at the end on the
    dimmed Next (not in the Tab order)."""
    _history, path, last = finished_hand
    context = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{site}{path}?step={last - 2}")
        page.wait_for_load_state("domcontentloaded")
        page.focus("#replay-next")
        for step in (last - 1, last):
            page.keyboard.press("Enter")
            wait_for_step(page, step)
            page.wait_for_function(f"{FOCUSED} === 'replay-next'")
        assert page.get_attribute("#replay-next", "aria-disabled") == "true"
        page.keyboard.press("Shift+Tab")  # back to the step before, from where the focus is
        assert page.evaluate(FOCUSED) == "replay-prev"
        page.keyboard.press("Enter")
        wait_for_step(page, last - 1)
        page.wait_for_function(f"{FOCUSED} === 'replay-prev'")
    finally:
        context.close()
