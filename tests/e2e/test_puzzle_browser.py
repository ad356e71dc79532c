"""A puzzle (何切, issue 35) in a real browser on a 390px phone, in Chinese and English:
the position and a button per tile, no answer on the page; a tap on a tile swaps in the
answer over htmx (every option's numbers, the best marked); nothing makes the page scroll
sideways and axe-core finds nothing serious, before and after. The puzzle is taken from a
hand played on the site's database (conftest.finished_hand); a random bot's hand may hold
no clear-best discard, so any decision with one best discard serves here (the page's
layout is under test, not the selection: tests/web/test_puzzles.py).

The list, for a logged-in player with a puzzle solved and one missed, over two pages: on a
390px phone and at a 1280px desktop nothing scrolls sideways, axe-core finds nothing
serious, each mark is a word and the pager marks its current page."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.e2e.conftest import ROOT, shot
from tests.e2e.test_page_overflow import LANGUAGES, PHONES, measure, problems
from tests.e2e.test_review_browser import blocking
from tests.e2e.tour import new_player_page, site_shell

pytestmark = pytest.mark.e2e

MAKE_A_PUZZLE = """
from mahjong.reviews import puzzles
from mahjong.reviews import services as reviews
from mahjong.reviews.models import Puzzle
from mahjong.tables.models import Hand
hand = Hand.objects.get(table__public_id="{table}", number={number})
# the site's worker reviews the hand after its end: maybe not yet (once stored, a no-op)
reviews.review(hand.pk)
puzzles.MARGIN, puzzles.MIN_OPTIONS = 1, 2  # any one best discard
puzzles.create(hand, [r.engine_review() for r in hand.reviews.all()])
# a hand without one (rare) takes any on the site: each use plays a hand of its own
print((hand.puzzles.order_by("-step").first() or Puzzle.objects.latest("pk")).code)
"""


@pytest.fixture
def puzzle_code(site_database, finished_hand):
    _history, replay, _last = finished_hand
    table, number = replay.split("/")[3:5]
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "MAHJONG_TEST_SEED"}}
    env.update(
        DATABASE_URL=site_database,
        MAHJONG_TESTING="true",
        DJANGO_SETTINGS_MODULE="mahjong.settings",
    )
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "manage.py"),
            "shell",
            "-c",
            MAKE_A_PUZZLE.format(table=table, number=number),
        ],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return out.stdout.split()[-1]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_puzzle_is_answered_on_a_phone(browser, site, puzzle_code, language):
    context = browser.new_context(
        locale=LANGUAGES[language], viewport={"width": 390, "height": PHONES[390]}
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{site}/puzzles/{puzzle_code}/")
        page.wait_for_selector(".puzzle-choice")
        assert page.locator("[data-testid=puzzle-result]").count() == 0
        assert problems(measure(page)) == []
        assert blocking(page) == []
        shot(page, f"puzzle-{language}")
        page.locator(".puzzle-choice").first.click()
        page.wait_for_selector("[data-testid=puzzle-result]")
        assert page.locator("html").count() == 1  # swapped in, not a new page
        assert page.locator(".review-options .best").count() == 1
        assert page.locator("fieldset[disabled]").count() == 1
        assert problems(measure(page)) == []
        assert blocking(page) == []
        shot(page, f"puzzle-answered-{language}")
    finally:
        context.close()


# More puzzles than a page (copies of one, each its own step: the list's layout is under
# test here), and the player's first answers: the newest right, the next wrong.
A_LIST_OF_PUZZLES = """
from accounts.models import User
from lobby.puzzles import PAGE_SIZE
from mahjong.reviews import puzzles
from mahjong.reviews.models import Puzzle
p = Puzzle.objects.get(code="{code}")
fields = dict(hand=p.hand, seat=p.seat, ruleset=p.ruleset, position=p.position,
              options=p.options, answer=p.answer, chosen=p.chosen, bot=p.bot)
Puzzle.objects.bulk_create(
    [Puzzle(step=p.step + 1000 + i, **fields) for i in range(PAGE_SIZE + 5)],
    ignore_conflicts=True,  # the other language's run made them
)
me = User.objects.get(username="{name}")
right, wrong = Puzzle.objects.order_by("-pk")[:2]
puzzles.answer(right, me, right.answer)
puzzles.answer(wrong, me, next(a for a in wrong.choices() if a != wrong.answer))
"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_puzzle_list_with_a_players_marks_fits_a_phone_and_a_desktop(
    browser, site, site_database, puzzle_code, language
):
    phone = {"width": 390, "height": PHONES[390]}
    with new_player_page(
        browser, site, site_database, "pz", locale=LANGUAGES[language], viewport=phone
    ) as (page, name):
        site_shell(site_database, A_LIST_OF_PUZZLES.format(code=puzzle_code, name=name))
        page.goto(f"{site}/puzzles/")
        page.wait_for_selector(".puzzle-item[data-mark]")
        found = page.eval_on_selector_all(
            ".puzzle-item[data-mark]",
            "rows => rows.map(r => [r.dataset.mark, r.querySelector('.puzzle-mark').innerText])",
        )
        marks = [m for m, _word in found]
        assert marks[:2] == ["solved", "missed"] and set(marks[2:]) == {"new"}
        assert all(word.strip("✓✗ ") for _m, word in found)  # a word, not a colour alone
        assert page.locator(".pager [aria-current=page]").inner_text() == "1"
        assert page.locator("input[name=unsolved]").count() == 1
        for width, height in ((390, PHONES[390]), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            assert problems(measure(page)) == [], width
            assert blocking(page) == [], width
            shot(page, f"puzzles-{language}-{width}")
        # the pager's next page, on the phone again
        page.set_viewport_size(phone)
        page.click(".pager a[rel=next]")
        page.wait_for_selector(".pager [aria-current=page]")
        assert page.locator(".pager [aria-current=page]").inner_text() == "2"
        assert problems(measure(page)) == []
