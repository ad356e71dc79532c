"""Stage mode in a real browser: from the lobby to the stage screen, a stage hand played
against the computer to its result on a live table, and the climb updated and resumed."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.e2e.conftest import FAST_TIMERS, ROOT, shot
from tests.e2e.test_table_play import play_to_end
from tests.e2e.tour import wait_for_socket

pytestmark = pytest.mark.e2e


@pytest.fixture
def fast_stage_timers(site, site_database):
    """The stage ruleset's timers made short on the running site (an admin override)."""
    env = {
        **os.environ,
        "DATABASE_URL": site_database,
        "MAHJONG_TESTING": "true",
        "DJANGO_SETTINGS_MODULE": "mahjong.settings",
    }
    code = (
        "from catalogue.models import Ruleset; Ruleset.objects.filter(engine_slug='stage')"
        f".update(overrides={{'timers': {FAST_TIMERS!r}}})"
    )
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", code],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
    )


def stage_facts(page) -> dict:
    screen = page.locator("[data-testid=stage-screen]")
    return {k: screen.get_attribute(f"data-{k}") for k in ("stage", "status", "score", "hands")}


def test_a_stage_hand_is_played_to_its_result_and_the_climb_moves_on(
    player, site, fast_stage_timers
):
    page = player("stella")
    page.click("[data-testid=stage-mode-link]")
    page.wait_for_url(f"{site}/stages/")
    assert stage_facts(page) == {"stage": "1", "status": "ready", "score": "1500", "hands": "0"}
    assert page.inner_text("[data-testid=stage-pass]") == "4,000"
    assert page.inner_text("[data-testid=stage-stake]").startswith("300")
    shot(page, "stage-screen")

    page.click("[data-testid=stage-play]")
    page.wait_for_url(re.compile(r"/tables/\w+/$"))
    table_url = page.url
    page.wait_for_selector("#mj-hand [data-tile]")
    wait_for_socket(page)
    play_to_end(page)
    shot(page, "stage-hand-end")
    outcome = page.get_attribute("[data-outcome]", "data-outcome")
    assert outcome in {"self_draw", "discard_win", "draw"}

    page.goto(f"{site}/stages/")
    facts = stage_facts(page)
    assert facts["hands"] == "1" and facts["stage"] == "1"
    score = int(facts["score"])
    if outcome == "draw":
        assert score == 1500
    else:  # a win pays stake + fan × (fan + 1) × 50 (at least 100); a computer win costs 300
        assert score == 1200 or score >= 1600
    if facts["status"] == "ready":  # the table stays open for the next hand: offered back
        assert page.get_attribute("[data-testid=stage-resume]", "href") in table_url
    page.reload()
    assert stage_facts(page) == facts
    shot(page, "stage-screen-after")
