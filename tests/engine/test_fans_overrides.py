"""Operator overrides of fan values, caps, minimum fan (rulesets.derive checks fan keys
against the scorer's tables)."""

import pytest
from test_fans_support import score

from mahjong.engine.errors import InvalidRuleset
from mahjong.engine.fans import TABLES, known_fan_keys
from mahjong.engine.rulesets import RULESETS, SLUGS, get_ruleset


@pytest.mark.parametrize("slug", SLUGS)
def test_every_ruleset_has_a_fan_table_with_names_and_values(slug):
    keys = known_fan_keys(RULESETS[slug])
    assert keys and keys == TABLES[slug].keys()
    for fan in TABLES[slug].fans:
        assert fan.zh and fan.en and fan.value >= 1
        assert set(fan.excludes) <= keys, f"{fan.key} excludes an unknown fan"


def test_gb_has_its_81_fans_plus_ming_an_gang():
    assert len(known_fan_keys(RULESETS["gb"])) == 82


@pytest.mark.parametrize(
    "overrides,words",
    [
        ({"fan_values": {"no_such_fan": 3}}, "no_such_fan"),
        ({"fan_values": {"qing_yi_se": -1}}, "qing_yi_se"),
        ({"fan_values": {"qing_yi_se": "24"}}, "qing_yi_se"),
        ({"fan_values": {"long_qi_dui": 6}}, "long_qi_dui"),  # a classic fan, not gb's
    ],
)
def test_bad_fan_overrides_are_refused_naming_the_fan(overrides, words):
    with pytest.raises(InvalidRuleset) as err:
        get_ruleset("gb", overrides)
    assert words in str(err.value)


def test_an_overridden_fan_value_is_scored():
    result = score("gb", "1233455677899m 9m", {"fan_values": {"qing_yi_se": 30}})
    assert next(s for s in result.fans if s.key == "qing_yi_se").fan == 30


def test_an_overridden_cap_and_minimum_apply():
    assert score("classic", "1233455677899m 9m", {"cap": 5}).total == 5
    assert score("gb", "1233455677899m 9m", {"min_fan": 61}).below_minimum
