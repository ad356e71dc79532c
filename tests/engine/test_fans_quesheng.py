"""quesheng (RULES.md 6.4): every fan has a hand that scores it and a near miss; 过胡
doubling; the Guobiao counting principles apply to its set combinations."""

import pytest
from test_fans_support import fan_keys, score

H1 = "123456789m1112z 2z"  # 清龙 混一色 门前清
MELDED = "456789m1112z 2z | chi 123m"

CASES = [
    ("da_si_xi", "111222333444z5m 5m", "111222333z555z5m 5m"),
    ("da_san_yuan", "555666777z123m9m 9m", "555666z123m456m9m 9m"),
    ("jiu_lian_bao_deng", "1112345678999m 5m", "1112345678899m 9m"),
    ("da_yu_wu", "666777888m678m9m 9m", "666777888m567m9m 9m"),
    ("xiao_yu_wu", "222333444m234m1m 1m", "222333444m345m1m 1m"),
    ("da_qi_xing", "1122334455667z 7z", "1122334455z119m 9m"),
    (
        "si_gang",
        "5m 5m | kan 1111m, kan 2222m, ankan 3333z, kan 4444z",
        "55m55z 5z | kan 1111m, kan 2222m, ankan 3333z",
    ),
    ("lian_qi_dui", "1122334455667m 7m", "1122334455668m 8m"),
    ("tian_hu", H1 + " tsumo first_turn dealer", H1 + " tsumo first_turn"),
    ("di_hu", H1 + " tsumo first_turn", H1 + " tsumo"),
    ("xiao_si_xi", "111222333z4z123m 4z", "111222333z5z123m 5z"),
    ("xiao_san_yuan", "555666z7z123m456m 7z", "555666z1z123m456m 1z"),
    ("si_an_ke", "111222333z444m5m 5m tsumo", "111222333z44m55m 4m"),
    ("shuang_long_hui", "1122335778899m 5m", "112233778899m1z 1z"),
    ("zi_yi_se", "111222333555z6z 6z", "111222333z555z1m 1m"),
    ("ren_hu", H1 + " first_turn", H1 + " first_turn dealer"),
    ("si_tong_shun", "111122223333m5z 5z", "111222333456m5z 5z"),
    ("san_yuan_qi_dui", "556677z1133557m 7m", "5566z113355779m 9m"),
    ("si_xi_qi_dui", "11223344z11335m 5m", "112233z55z11335m 5m"),
    (
        "si_lian_ke",
        "222m5z 5z | pon 333m, pon 444m, pon 555m",
        "777m5z 5z | pon 333m, pon 444m, pon 555m",
    ),
    ("si_bu_gao", "122333444556m5z 5z", "122333445567m5z 5z"),
    ("hun_yao_jiu", "111999m111z22z33z 2z", "111999m111z22z55m 2z"),
    (
        "san_gang",
        "456m5z 5z | kan 1111m, kan 2222z, kan 3333z",
        "456m5z 5z | kan 1111m, kan 2222z, pon 333z",
    ),
    ("tian_ting", H1 + " ting=tian_ting", H1 + " ting=ready"),
    ("si_zi_ke", "111222555666z9m 9m", "111222555z678m9m 9m"),
    ("da_san_feng", "111222333z123m5m 5m", "111222z555z123m5m 5m"),
    ("san_tong_shun", "112233m456m9m 9m | chi 123m", "122334m456m9m 9m | chi 123m"),
    ("qi_dui", "113355779m1122z 9m", H1),
    ("san_lian_ke", "666m789m1z 1z | pon 444m, pon 555m", "777m123m1z 1z | pon 444m, pon 555m"),
    ("qing_long", H1, "123456m678m1112z 2z"),
    ("san_bu_gao", "123234345m789m5z 5z", "123234456m789m5z 5z"),
    ("quan_hua", H1 + " flowers=8", H1 + " flowers=7"),
    ("san_an_ke", "111222333z456m5m 5m", "222333z456m5m 5m | pon 111z"),
    ("qing_yi_se", "1233455677899m 9m", H1),
    ("miao_shou_hui_chun", H1 + " tsumo last_tile", H1 + " last_tile"),
    ("hai_di_lao_yue", H1 + " last_tile", H1),
    (
        "gang_shang_kai_hua",
        "456789m1112z 2z tsumo kong_replacement | kan 1111m",
        "456789m1112z 2z tsumo | kan 1111m",
    ),
    ("qiang_gang_hu", "12345678m11122z 9m robbing_kong", H1 + " robbing_kong"),
    ("xiao_san_feng", "111222z3z456m789m 3z", "111222z5z456m789m 5z"),
    ("shuang_jian_ke", "555666z123m456m9m 9m", "555z123m456m789m9m 9m"),
    ("peng_peng_hu", "111m444z5z 5z | pon 222m, pon 333m", "111m444z5z 5z | pon 222m, chi 345m"),
    (
        "shuang_an_gang",
        "123m5z 5z | ankan 1111z, ankan 2222z, chi 456m",
        "123m5z 5z | ankan 1111z, kan 2222z, chi 456m",
    ),
    ("hun_yi_se", H1, "1233455677899m 9m"),
    (
        "quan_qiu_ren",
        "5z 5z | chi 123m, chi 456m, pon 777m, pon 111z",
        "5z 5z tsumo | chi 123m, chi 456m, pon 777m, pon 111z",
    ),
    ("quan_dai_yao", "123m789m123m111z2z 2z", "234m789m123m111z2z 2z"),
    (
        "shuang_ming_gang",
        "123m5z 5z | kan 1111z, kan 2222z, chi 456m",
        "123m5z 5z | kan 1111z, pon 222z, chi 456m",
    ),
    ("bu_qiu_ren", H1 + " tsumo", "456789m1112z 2z tsumo | chi 123m"),
    ("he_jue_zhang", "12345678m11122z 9m last_of_kind", H1 + " last_of_kind"),
    ("jian_ke", "123456789m5552z 2z", "123456789m3332z 2z"),
    ("ping_hu", "123456m234m56m99m 7m", "123456m234m56m11z 7m"),
    ("si_gui_yi", "111123m456m789m5z 5z", "234m456m789m5z 5z | kan 1111m"),
    ("duan_yao", "234m567m234m56m88m 4m", "234m567m234m56m99m 4m"),
    ("shuang_an_ke", "222333789m1155z 1z", "333789m1155z 1z | pon 222m"),
    ("an_gang", "123m456m789m5z 5z | ankan 1111z", "123m456m789m5z 5z | kan 1111z"),
    ("men_qian_qing", H1, H1 + " tsumo"),
    ("bao_ting", H1 + " ting=ready", H1),
    ("yi_ban_gao", "112233m456m789m1z 1z", "123234m456m789m1z 1z"),
    ("lian_liu", "123456m678m1112z 2z", "123567m678m1112z 2z"),
    ("lao_shao_fu", "123789m345m1112z 2z", "123678m345m1112z 2z"),
    ("hua_pai", H1 + " flowers=1", H1),
    ("ming_gang", "123m456m789m5z 5z | kan 1111z", "123m456m789m5z 5z | pon 111z"),
    ("bian_zhang", "12m456m789m111z55z 3m", "23m456m789m111z55z 4m"),
    ("kan_zhang", "13m456m789m111z55z 2m", "23m456m789m111z55z 4m"),
    ("dan_diao_jiang", "123m456m789m111z5z 5z", "123m456m789m33z44z 4z"),
    ("zi_mo", "456789m1112z 2z tsumo | chi 123m", MELDED),
]


@pytest.mark.parametrize("key,hand,miss", CASES, ids=[c[0] for c in CASES])
def test_each_fan_scores_on_its_hand_and_not_on_the_near_miss(key, hand, miss):
    assert key in fan_keys("quesheng", hand)
    result = score("quesheng", miss)
    assert result.is_win and key not in {s.key for s in result.fans}


def test_every_quesheng_fan_has_a_case():
    from mahjong.engine.fans import TABLES

    assert {c[0] for c in CASES} == TABLES["quesheng"].keys()


@pytest.mark.parametrize("passes,factor", [(0, 1), (1, 2), (2, 4), (3, 8), (5, 8)])
def test_each_pass_on_a_win_doubles_the_fan_up_to_three(passes, factor):
    result = score("quesheng", f"{H1} ting=ready passes={passes}")
    assert result.total == result.raw_total * factor


@pytest.mark.parametrize(
    "hand,excluded",
    [
        ("113355779m1122z 9m tsumo", {"zi_mo", "bu_qiu_ren", "men_qian_qing", "dan_diao_jiang"}),
        (
            "1122334455667z 7z tsumo",
            {"qi_dui", "si_xi_qi_dui", "san_yuan_qi_dui", "zi_yi_se", "zi_mo"},
        ),
        ("111222333444z5m 5m", {"peng_peng_hu", "da_san_feng", "xiao_san_feng", "si_zi_ke"}),
        (H1 + " ting=tian_ting", {"bao_ting"}),
    ],
)
def test_exclusions(hand, excluded):
    assert not excluded & set(fan_keys("quesheng", hand))
