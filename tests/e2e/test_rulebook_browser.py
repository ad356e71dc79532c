"""The fan calculator in a real browser: a hand scored by htmx gets an address of its own
(back and a shared link bring it again), the result is said to a screen reader, and a
change of language keeps the hand (the switcher sends the address htmx pushed)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_a_scored_hand_has_an_address_and_survives_a_change_of_language(page, site):
    page.goto(f"{site}/rules/gb/calculator/")
    page.fill("#id_hand", "123m456m789m1155z")
    page.fill("#id_win", "5z")
    page.check("#id_tsumo")
    page.press("#id_win", "Enter")  # the keyboard alone submits
    page.wait_for_selector("[data-testid=calc-result] li[data-fan=qing_long]")
    assert "hand=123m456m789m1155z" in page.url and "tsumo=on" in page.url
    assert "28 番" in page.inner_text("#calc-said")  # the live region outside the swap

    page.select_option("select[name=language]", "en")
    page.wait_for_selector("html[lang=en]")
    result = page.locator("[data-testid=calc-result]")
    assert "28 fan" in result.inner_text() and "Pure straight" in result.inner_text()
    assert page.input_value("#id_hand") == "123m456m789m1155z"
    assert page.is_checked("#id_tsumo")

    page.fill("#id_win", "4z")
    page.click("[data-testid=calc-score]")
    page.wait_for_selector("[data-testid=calc-result] [data-testid=calc-error]")
    page.go_back()
    page.wait_for_selector("[data-testid=calc-result] li[data-fan=qing_long]")
