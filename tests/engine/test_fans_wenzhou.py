"""wenzhou (RULES.md 9.3, 9.4): 软 ×1 / 硬 ×2, ×2 per 双翻 item, the cap of 8; 财神
substitution makes a hand soft unless it plays at its own face."""

import pytest
from test_fans_support import fan_keys, score

PUNGS = "111222333m444p555s9s 9s"  # 碰碰和 with a 9s pair
CHOWS = "123456789m123p456s9s 9s"


@pytest.mark.parametrize(
    "hand,keys,multiplier",
    [
        (PUNGS + " wild=1z", {"ruan_pai", "peng_peng_he"}, 2),  # soft 碰碰和 on a discard
        (PUNGS + " tsumo wild=1z", {"ying_pai", "peng_peng_he"}, 4),  # hard 碰碰和
        (PUNGS + " tsumo first_turn dealer wild=1z", {"ying_pai", "peng_peng_he", "tian_hu"}, 8),
        (CHOWS + " wild=1z", {"ruan_pai"}, 1),
        (CHOWS + " tsumo wild=1z", {"ying_pai"}, 2),
        (CHOWS + " first_turn wild=1z", {"ruan_pai", "di_hu"}, 2),
        # a wild (7z) substitutes for the 9s of the pair: soft even when self-drawn
        ("123456789m123p456s7z 9s tsumo wild=7z", {"ruan_pai"}, 1),
        # the wild at its own face (9s, 财神归位) keeps the hand hard; three of them: 三财神
        ("11222333m444p555s99s 9s tsumo wild=9s", {"ying_pai", "san_cai_shen", "peng_peng_he"}, 8),
        (
            "9s 9s | pon 111m, pon 222m, pon 333m, chi 456p, pon 555s",
            {"ruan_pai", "quan_qiu_ren"},
            2,
        ),
        ("11223344556677m99s 9s tsumo wild=1z", {"ying_pai", "ying_ba_dui"}, 4),
        # 硬八对 whose self-drawn winning tile is a 财神 at its own face (9.3 allows 财神 at
        # their own face): the pair 9s 9s, or the triplet of all three (no 三财神: not standard)
        ("1155m1199p2233s888p9s 9s tsumo wild=9s", {"ying_pai", "ying_ba_dui"}, 4),
        ("1155m1199p2233s44z9s9s 9s tsumo wild=9s", {"ying_pai", "ying_ba_dui"}, 4),
        ("1155m1199p2233s888p5z 9s tsumo wild=9s", {"ying_pai", "ying_ba_dui"}, 4),
        # all three 财神 self-drawn with a regular form: hard (it could be declared as the
        # 三财神 instant win) and 三财神, also when wilds stand in to make the form (9.4)
        ("123m456m789m12p5p999s1z 1z tsumo wild=9s", {"ying_pai", "san_cai_shen"}, 4),
        (
            "123m456m789m12p5p999s1z 1z tsumo first_turn dealer wild=9s",
            {"ying_pai", "san_cai_shen", "tian_hu"},
            8,
        ),
        (
            "111m222p333s44z5p999s7z 7z tsumo wild=9s",
            {"ying_pai", "san_cai_shen", "peng_peng_he"},
            8,
        ),
        # on a discard there is no instant win: wilds standing in keep it soft
        ("123m456m789m12p5p999s1z 1z wild=9s", {"ruan_pai", "san_cai_shen"}, 2),
    ],
)
def test_multiplier(hand, keys, multiplier):
    result = score("wenzhou", hand)
    assert set(fan_keys("wenzhou", hand)) == keys
    assert result.total == result.multiplier == multiplier
    assert result.soft == ("ruan_pai" in keys)


def test_the_multiplier_is_capped_at_eight():
    hand = "11222333m444p555s99s 9s tsumo first_turn dealer wild=9s"
    result = score("wenzhou", hand)
    assert result.raw_total == 16 and result.total == 8


def test_near_misses():
    assert "peng_peng_he" not in fan_keys("wenzhou", CHOWS + " wild=1z")
    assert "quan_qiu_ren" not in fan_keys(
        "wenzhou", "9s 9s | pon 111m, pon 222m, pon 333m, chi 456p, ankan 5555s"
    )
    assert "san_cai_shen" not in fan_keys("wenzhou", PUNGS + " tsumo wild=1z")
    assert "ying_ba_dui" not in fan_keys("wenzhou", PUNGS + " tsumo wild=1z")


def test_the_cap_that_cut_a_win_is_named():
    from mahjong.engine.fans import cap_cut
    from mahjong.engine.rulesets import get_ruleset

    capped = score("wenzhou", "11222333m444p555s99s 9s tsumo first_turn dealer wild=9s")
    rs = get_ruleset("wenzhou")
    assert cap_cut(rs, [(f.fan, f.count) for f in capped.fans]) == 8
    under = score("wenzhou", PUNGS + " tsumo wild=1z")
    assert cap_cut(rs, [(f.fan, f.count) for f in under.fans]) is None
