import dataclasses

import pytest

from mahjong.engine.errors import RULESET_CHECKS, InvalidRuleset
from mahjong.engine.rulesets import RULESETS, check_consistency, get_ruleset


@pytest.mark.parametrize(
    "slug,count,hand",
    [
        ("classic", 72, 13),
        ("stage", 136, 13),
        ("quesheng", 72, 13),
        ("tiao72", 72, 13),
        ("gb", 144, 13),
        ("wenzhou", 136, 16),
    ],
)
def test_tile_sets_and_hand_sizes_follow_the_rules(slug, count, hand):
    rs = RULESETS[slug]
    assert len(rs.tile_set) == rs.tile_count == count
    assert rs.hand_size == hand


def test_rulesets_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        RULESETS["classic"].cap = 99


def test_a_valid_override_derives_a_new_ruleset_and_leaves_the_base_alone():
    derived = get_ruleset("classic", {"cap": 8, "timers": {"decision": 20}})
    assert derived.cap == 8 and derived.timers.decision == 20
    assert RULESETS["classic"].cap == 13 and RULESETS["classic"].timers.decision == 15


@pytest.mark.parametrize(
    "overrides,words",
    [
        ({"cap": 0}, "cap"),
        ({"hand_size": 14}, "hand_size"),
        ({"bao_ting": False}, "tian_ting needs bao_ting"),
        ({"haidi_draws": 0}, "haidi_draws"),
        ({"timers": {"decision": 1}}, "decision"),
        ({"timers": {"nap": 3}}, "nap"),
        ({"options": {"nope": True}}, "nope"),
        ({"min_fan": -1}, "min_fan"),
        ({"self_draw_multiplier": "3"}, "self_draw_multiplier"),
        ([1, 2], "overrides"),
    ],
)
def test_inconsistent_overrides_are_refused_naming_the_value(overrides, words):
    with pytest.raises(InvalidRuleset) as err:
        get_ruleset("classic", overrides)
    assert words in str(err.value)


def test_option_types_and_probabilities_are_checked():
    assert get_ruleset("stage", {"options": {"p_cuo": 0.2}}).options["p_cuo"] == 0.2
    with pytest.raises(InvalidRuleset):
        get_ruleset("stage", {"options": {"p_cuo": 1.5}})
    with pytest.raises(InvalidRuleset):
        get_ruleset("gb", {"options": {"ming_an_gang": 1}})


def test_unknown_slug_is_refused():
    with pytest.raises(InvalidRuleset, match="unknown ruleset"):
        get_ruleset("riichi")


# Every check's facts, so a front end can word the refusal itself (lobby's admin does,
# in the admin's language): (ruleset, overrides, code, setting, value, facts).
REFUSALS = [
    ("classic", [1, 2], "not_object", (), [1, 2], {}),
    ("classic", {"timers": 5}, "not_object", ("timers",), 5, {}),
    ("stage", {"options": "x"}, "not_object", ("options",), "x", {}),
    ("classic", {"fan_values": [3]}, "not_object", ("fan_values",), [3], {}),
    ("classic", {"tiles": 3}, "unknown_setting", ("tiles",), None, {}),
    ("classic", {"bao_ting": "yes"}, "true_or_false", ("bao_ting",), "yes", {}),
    ("classic", {"min_fan": -1}, "whole_number", ("min_fan",), -1, {"low": 0, "high": 1000}),
    ("classic", {"base_points": 0}, "whole_number", ("base_points",), 0, {"low": 1, "high": 1000}),
    # Points and multipliers have a ceiling: a hand's points must fit a rank score.
    (
        "classic",
        {"base_points": 10**11},
        "whole_number",
        ("base_points",),
        10**11,
        {"low": 1, "high": 1000},
    ),
    (
        "classic",
        {"escape_penalty": 10**20},
        "whole_number",
        ("escape_penalty",),
        10**20,
        {"low": 0, "high": 1000},
    ),
    (
        "classic",
        {"discard_multiplier": 11},
        "whole_number",
        ("discard_multiplier",),
        11,
        {"low": 1, "high": 10},
    ),
    ("classic", {"cap": 1001}, "whole_number_or_none", ("cap",), 1001, {"low": 1, "high": 1000}),
    (
        "gb",
        {"fan_values": {"qing_yi_se": 10**23}},
        "fan_value",
        ("fan_values", "qing_yi_se"),
        10**23,
        {"low": 0, "high": 1000},
    ),
    (
        "classic",
        {"rake_percent": 150},
        "whole_number",
        ("rake_percent",),
        150,
        {"low": 0, "high": 50},
    ),
    ("classic", {"cap": -1}, "whole_number_or_none", ("cap",), -1, {"low": 1, "high": 1000}),
    (
        "classic",
        {"timers": {"decision": 0}},
        "seconds",
        ("timers", "decision"),
        0,
        {"low": 3, "high": 300},
    ),
    ("classic", {"timers": {"nap": 3}}, "unknown_timer", ("timers", "nap"), None, {}),
    (
        "classic",
        {"options": {"nope": True}},
        "unknown_option",
        ("options", "nope"),
        None,
        {"ruleset": "classic", "allowed": []},
    ),
    (
        "gb",
        {"options": {"ming_an_gang": 1}},
        "option_type",
        ("options", "ming_an_gang"),
        1,
        {"kind": "bool"},
    ),
    (
        "stage",
        {"options": {"p_cuo": 1.5}},
        "probability",
        ("options", "p_cuo"),
        1.5,
        {"low": 0, "high": 1},
    ),
    (
        "gb",
        {"fan_values": {"qing_yi_se": -1}},
        "fan_value",
        ("fan_values", "qing_yi_se"),
        -1,
        {"low": 0},
    ),
    (
        "gb",
        {"fan_values": {"nope": 6}},
        "unknown_fan",
        ("fan_values",),
        None,
        {"ruleset": "gb", "fans": ["nope"]},
    ),
    ("classic", {"bao_ting": False}, "needs", ("tian_ting",), None, {"other": ("bao_ting",)}),
    ("classic", {"max_guo": 2}, "must_be_zero", ("max_guo",), 2, {"because": ("guo_hu",)}),
    (
        "quesheng",
        {"haidi_draws": 2},
        "must_be_zero",
        ("haidi_draws",),
        2,
        {"because": ("haidi_phase",)},
    ),
    (
        "classic",
        {"haidi_draws": 0},
        "at_least",
        ("haidi_draws",),
        0,
        {"low": 1, "because": ("haidi_phase",)},
    ),
    ("classic", {"haidi_draws": 11}, "at_most", ("haidi_draws",), 11, {"high": 10}),
    (
        "classic",
        {"cap": 5, "min_fan": 6},
        "below",
        ("cap",),
        5,
        {"other": ("min_fan",), "other_value": 6},
    ),
    (
        "classic",
        {"discard_multiplier": 5},
        "below",
        ("self_draw_multiplier",),
        3,
        {"other": ("discard_multiplier",), "other_value": 5},
    ),
    ("riichi", None, "unknown_ruleset", (), "riichi", {}),
]


@pytest.mark.parametrize("slug,overrides,code,setting,value,facts", REFUSALS)
def test_a_refused_override_carries_its_check_setting_value_and_limits(
    slug, overrides, code, setting, value, facts
):
    with pytest.raises(InvalidRuleset) as err:
        get_ruleset(slug, overrides)
    exc = err.value
    assert (exc.code, exc.setting, exc.value) == (code, setting, value)
    assert facts.items() <= exc.facts.items()


def test_an_unknown_winning_form_carries_its_facts_and_every_check_is_covered():
    rs = dataclasses.replace(RULESETS["classic"], forms=frozenset({"standard", "knitted"}))
    with pytest.raises(InvalidRuleset) as err:
        check_consistency(rs)
    assert (err.value.code, err.value.setting, err.value.value) == (
        "unknown_forms",
        ("forms",),
        ["knitted"],
    )
    assert {code for *_x, code, _s, _v, _f in REFUSALS} | {"unknown_forms"} == set(RULESET_CHECKS)
