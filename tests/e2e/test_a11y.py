"""axe-core (from npm) run in chromium on the lobby, the table mid-hand and at the end of a
hand, the replay, the profile, the settings page, the rule book and its fan calculator, at
both screen sizes: no serious or critical violation. The tour walks in Chinese; the stage
screen and a stage table are also scanned in English on a 360px phone (some rules, as
label-in-name, only judge English)."""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.tour import (  # noqa: F401
    BLOCKING,
    PAGES,
    SIZES,
    axe_scan,
    log_in_new_player,
    tour,
)

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_no_serious_accessibility_violation(tour, size, name):  # noqa: F811
    blocking = [v for v in tour[size].violations[name] if v["impact"] in BLOCKING]
    assert blocking == []


def test_the_stage_screen_and_a_stage_table_in_english_on_a_small_phone(
    browser, site, site_database
):
    context = browser.new_context(locale="en-US", viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        log_in_new_player(page, site, site_database, f"axe{int(time.time() * 1000) % 10**7}")
        page.goto(f"{site}/stages/")
        found = {"stages": axe_scan(page)}
        page.click("[data-testid=stage-play]")
        page.wait_for_url(re.compile(r"/tables/\w+/$"))
        page.wait_for_selector("#mj-hand [data-tile]")
        found["stage table"] = axe_scan(page)
        blocking = {
            name: [v for v in violations if v["impact"] in BLOCKING]
            for name, violations in found.items()
        }
        assert blocking == {"stages": [], "stage table": []}
        headings = page.eval_on_selector_all("h1", "els => els.map(e => e.textContent)")
        assert headings == ["Mahjong table"]  # axe's page-has-heading-one (moderate)
    finally:
        context.close()
