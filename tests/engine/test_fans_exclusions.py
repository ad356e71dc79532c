"""Exclusions hold everywhere: no counted fan ever appears next to a fan it excludes,
over every hand of the per-table tests and thousands of random gb hands; and each
exclusion that can be shown on a hand where the excluded fan's own condition holds is
shown in the table tests (test_fans_gb.py, test_fans_quesheng.py, ...)."""

import random

import pytest
import test_fans_classic
import test_fans_gb
import test_fans_quesheng
import test_fans_tiao72
from test_fans_support import score
from test_gb_oracle_hands import random_deal

from mahjong.engine.fans import TABLES, score_win
from mahjong.engine.rulesets import RULESETS


def case_hands():
    for _key, hand, miss in test_fans_gb.CASES:
        yield "gb", hand
        yield "gb", miss
    for slug, _key, hand, miss in test_fans_classic.CASES:
        yield slug, hand
        yield slug, miss
    for slug, module in (("quesheng", test_fans_quesheng), ("tiao72", test_fans_tiao72)):
        for _key, hand, miss in module.CASES:
            yield slug, hand
            yield slug, miss


def assert_no_excluded_pair(slug, result, label):
    table = TABLES[slug]
    counted = {s.key for s in result.fans}
    for key in counted:
        clash = counted & set(table.by_key[key].excludes)
        assert not clash, f"{label}: {key} counted with {clash}"


@pytest.mark.parametrize("slug,hand", list(case_hands()))
def test_no_fan_is_counted_with_a_fan_it_excludes(slug, hand):
    assert_no_excluded_pair(slug, score(slug, hand), hand)


def test_no_exclusion_is_broken_on_random_gb_hands():
    rng = random.Random(11)
    for i in range(2000):
        deal = random_deal(rng)
        assert_no_excluded_pair("gb", score_win(RULESETS["gb"], deal.ctx), deal.as_json(i))
