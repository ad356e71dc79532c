"""A finished hand's review (复盘, issue 35) in a real browser: the hand page lists the
player's decisions, the biggest mistake (or any decision) opens the replay at its step,
where the options, the bot's choice and the player's are shown, and the next step's board
(over htmx) shows the next decision's. On a 390px phone, in Chinese and English, nothing
makes the page scroll sideways, a decision's options opened included, and axe-core finds
nothing serious. The hand is played
on the site's database (tests/e2e/conftest.finished_hand); its end committed, the review
task ran (eager: the site's test settings have no broker)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import shot
from tests.e2e.test_page_overflow import LANGUAGES, PHONES, measure, problems
from tests.e2e.test_replay_browser import step_of, wait_for_step
from tests.e2e.tour import BLOCKING, axe_scan

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_review_is_on_the_hand_page_and_in_the_replay_on_a_phone(
    browser, site, finished_hand, language
):
    _history, replay, _last = finished_hand
    hand_page = replay.removesuffix("replay/")
    context = browser.new_context(
        locale=LANGUAGES[language], viewport={"width": 390, "height": PHONES[390]}
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{site}{hand_page}")
        page.wait_for_selector("#review [data-review-seat='0']")
        assert page.locator("#review [data-review-seat='1']").count() == 0  # the bot's seat
        assert problems(measure(page)) == []
        first = page.locator(".review-decisions li").first
        first.locator("summary").click()
        page.wait_for_selector(".review-decisions li details[open] .review-options")
        assert problems(measure(page)) == []
        assert blocking(page) == []
        shot(page, f"review-hand-{language}")

        biggest = page.locator("[data-testid=review-biggest]")
        link = biggest if biggest.count() else first.locator("details a")
        step = int(link.get_attribute("href").rsplit("=", 1)[1])
        link.click()
        page.wait_for_selector("#replay-board")
        assert step_of(page) == step
        panel = page.locator(f"[data-review-step='{step}']")
        assert panel.is_visible()
        assert panel.locator("tr.chosen[aria-current=true]").count() == 1
        assert panel.locator(".tag.bot").count() == 1
        if biggest.count():
            assert panel.locator("[data-testid=review-lost]").count() == 1
        assert problems(measure(page)) == []
        assert blocking(page) == []
        shot(page, f"review-replay-{language}")

        page.wait_for_load_state("domcontentloaded")
        page.keyboard.press("ArrowRight")  # the next board, over htmx
        wait_for_step(page, step + 1)
        assert page.locator(f"[data-review-step='{step}']").count() == 0
    finally:
        context.close()


def blocking(page) -> list[dict]:
    """axe-core's serious and critical findings on the page as it is (tests/e2e/tour)."""
    return [v for v in axe_scan(page) if v["impact"] in BLOCKING]
