import pytest

from mahjong.engine.errors import InvalidRuleset
from mahjong.engine.rulesets import RULESETS, get_ruleset


@pytest.mark.parametrize("slug,count,hand", [("classic", 72, 13), ("stage", 136, 13),
                                             ("quesheng", 72, 13), ("tiao72", 72, 13),
                                             ("gb", 144, 13), ("wenzhou", 136, 16)])
def test_tile_sets_and_hand_sizes_follow_the_rules(slug, count, hand):
    rs = RULESETS[slug]
    assert len(rs.tile_set) == rs.tile_count == count
    assert rs.hand_size == hand


def test_rulesets_are_frozen():
    with pytest.raises(Exception):
        RULESETS["classic"].cap = 99


def test_a_valid_override_derives_a_new_ruleset_and_leaves_the_base_alone():
    derived = get_ruleset("classic", {"cap": 8, "timers": {"decision": 20}})
    assert derived.cap == 8 and derived.timers.decision == 20
    assert RULESETS["classic"].cap == 13 and RULESETS["classic"].timers.decision == 15


@pytest.mark.parametrize("overrides,words", [
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
])
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
