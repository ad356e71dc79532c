"""tiao72 (RULES.md 7.4-7.6): every reachable fan has a hand that scores it and a near
miss; the gb supplement switches off; corrected fans read as corrected."""

import re

import pytest
from test_fans_support import fan_keys, score


def s(text: str) -> str:
    """The same hand in 条 (the quesheng-style hands are written in 万)."""
    return re.sub(r"(\d)m", r"\1s", text)


H1 = s("123456789m1112z 2z")
MELDED = s("456789m1112z 2z | chi 123m")

# With 条 + honors only, these conditions force 清一色 (which excludes 无字) or need a
# fifth copy of a tile; they stay in the table as RULES.md lists them.
UNREACHABLE = {"quan_shuang_ke", "quan_da", "quan_zhong", "quan_xiao", "quan_dai_wu", "wu_zi"}

CASES = [
    ("ba_xian_guo_hai", H1 + " flowers=1f2f3f4f5f6f7f8f", H1 + " flowers=1f2f3f4f5f6f7f"),
    ("da_san_yuan", s("555666777z123m9m 9m"), s("555666z123m456m9m 9m")),
    ("jiu_lian_bao_deng", s("1112345678999m 5m"), s("1112345678899m 9m")),
    ("lv_yi_se", "223344666888s6z 6z", "223344666777s6z 6z"),
    (
        "si_gang",
        s("5m 5m | kan 1111m, kan 2222m, ankan 3333z, kan 4444z"),
        s("55m55z 5z | kan 1111m, kan 2222m, ankan 3333z"),
    ),
    ("da_si_xi", s("111222333444z5m 5m"), s("111222333z555z5m 5m")),
    ("lian_qi_dui", s("1122334455667m 7m"), s("1122334455668m 8m")),
    ("xiao_san_yuan", s("555666z7z123m456m 7z"), s("555666z1z123m456m 1z")),
    ("zi_yi_se", "111222333555z6z 6z", s("111222333z555z1m 1m")),
    ("yi_se_shuang_long_hui", s("1122335778899m 5m"), s("112233778899m1z 1z")),
    ("si_an_ke", s("111222333z444m5m 5m tsumo"), s("111222333z44m55m 4m")),
    ("xiao_si_xi", s("111222333z4z123m 4z"), s("111222333z5z123m 5z")),
    ("tian_hu", H1 + " tsumo first_turn dealer", H1 + " tsumo first_turn"),
    ("yi_se_si_tong_shun", s("111122223333m5z 5z"), s("111222333456m5z 5z")),
    (
        "yi_se_si_jie_gao",
        s("222m5z 5z | pon 333m, pon 444m, pon 555m"),
        s("777m5z 5z | pon 333m, pon 444m, pon 555m"),
    ),
    ("di_hu", H1 + " tsumo first_turn", H1 + " tsumo"),
    ("yi_se_si_bu_gao", s("122333444556m5z 5z"), s("122333445567m5z 5z")),
    ("hun_yao_jiu", s("111999m111z22z33z 2z"), s("111999m111z22z55m 2z")),
    (
        "san_gang",
        s("456m5z 5z | kan 1111m, kan 2222z, kan 3333z"),
        s("456m5z 5z | kan 1111m, kan 2222z, pon 333z"),
    ),
    ("ren_hu", H1 + " first_turn", H1 + " first_turn dealer"),
    ("yi_se_san_tong_shun", s("112233m456m9m 9m | chi 123m"), s("122334m456m9m 9m | chi 123m")),
    (
        "yi_se_san_jie_gao",
        s("666m789m1z 1z | pon 444m, pon 555m"),
        s("777m123m1z 1z | pon 444m, pon 555m"),
    ),
    ("qing_yi_se", s("1233455677899m 9m"), H1),
    ("qi_dui", s("113355779m1122z 9m"), H1),
    ("san_an_ke", s("111222333z456m5m 5m"), s("222333z456m5m 5m | pon 111z")),
    ("tian_ting", H1 + " ting=tian_ting", H1 + " ting=ready"),
    ("qing_long", H1, s("123456m678m1112z 2z")),
    ("yi_se_san_bu_gao", s("123234345m789m5z 5z"), s("123234456m789m5z 5z")),
    ("san_feng_ke", s("111222333z123m5m 5m"), s("111222z555z123m5m 5m")),
    ("da_yu_wu", s("666777888m678m9m 9m"), s("666777888m567m9m 9m")),
    ("xiao_yu_wu", s("222333444m234m1m 1m"), s("222333444m345m1m 1m")),
    ("tui_bu_dao", "222444666888s5z 5z", "222444666777s5z 5z"),
    ("hai_di_lao_yue", H1 + " tsumo last_tile", H1 + " tsumo"),
    (
        "gang_shang_kai_hua",
        s("456789m1112z 2z tsumo kong_replacement | kan 1111m"),
        s("456789m1112z 2z tsumo | kan 1111m"),
    ),
    ("qiang_gang_he", s("12345678m11122z 9m robbing_kong"), H1 + " robbing_kong"),
    ("hun_yi_se", H1, s("1233455677899m 9m")),
    (
        "quan_qiu_ren",
        s("5z 5z | chi 123m, chi 456m, pon 777m, pon 111z"),
        s("5z 5z tsumo | chi 123m, chi 456m, pon 777m, pon 111z"),
    ),
    (
        "peng_peng_hu",
        s("111m444z5z 5z | pon 222m, pon 333m"),
        s("111m444z5z 5z | pon 222m, chi 345m"),
    ),
    (
        "shuang_an_gang",
        s("123m5z 5z | ankan 1111z, ankan 2222z, chi 456m"),
        s("123m5z 5z | ankan 1111z, kan 2222z, chi 456m"),
    ),
    ("shuang_jian_ke", s("555666z123m456m9m 9m"), s("555z123m456m789m9m 9m")),
    ("quan_dai_yao", s("123m789m123m111z2z 2z"), s("234m789m123m111z2z 2z")),
    ("he_jue_zhang", s("12345678m11122z 9m last_of_kind"), H1 + " last_of_kind"),
    ("bu_qiu_ren", H1 + " tsumo", s("456789m1112z 2z tsumo | chi 123m")),
    (
        "shuang_ming_gang",
        s("123m5z 5z | kan 1111z, kan 2222z, chi 456m"),
        s("123m5z 5z | kan 1111z, pon 222z, chi 456m"),
    ),
    ("li_zhi", H1 + " ting=ready", s("456789m1112z 2z ting=ready | chi 123m")),
    ("duan_yao_jiu", s("234m567m234m56m88m 4m"), s("234m567m234m56m99m 4m")),
    ("ping_hu", s("123456m234m56m99m 7m"), s("123456m234m56m11z 7m")),
    ("si_gui_yi", s("111123m456m789m5z 5z"), s("234m456m789m5z 5z | kan 1111m")),
    ("men_qian_qing", H1, H1 + " tsumo"),
    ("shuang_an_ke", s("222333789m1155z 1z"), s("333789m1155z 1z | pon 222m")),
    ("jian_ke", s("123456789m5552z 2z"), s("123456789m3332z 2z")),
    ("an_gang", s("123m456m789m5z 5z | ankan 1111z"), s("123m456m789m5z 5z | kan 1111z")),
    ("er_wu_ba_jiang", "123456789s1115s 5s", "123456789s1119s 9s"),
    ("yao_jiu_tou", "123456789s1119s 9s", "123456789s1115s 5s"),
    ("mei_lan_zhu_ju", H1 + " flowers=5f6f7f8f", H1 + " flowers=5f6f7f"),
    ("chun_xia_qiu_dong", H1 + " flowers=1f2f3f4f", H1 + " flowers=1f2f3f"),
    ("yi_ban_gao", s("112233m456m789m1z 1z"), s("123234m456m789m1z 1z")),
    ("lian_liu", s("123456m678m1112z 2z"), s("123567m678m1112z 2z")),
    ("bian_zhang", s("12m456m789m111z55z 3m"), s("23m456m789m111z55z 4m")),
    ("kan_zhang", s("13m456m789m111z55z 2m"), s("23m456m789m111z55z 4m")),
    ("dan_diao", s("123m456m789m111z5z 5z"), s("123m456m789m33z44z 4z")),
    ("lao_shao_fu", s("123789m345m1112z 2z"), s("123678m345m1112z 2z")),
    ("yao_jiu_ke", H1, s("123456789m5552z 2z")),
    ("zi_mo", MELDED.replace(" |", " tsumo |"), MELDED),
    ("ming_gang", s("123m456m789m5z 5z | kan 1111z"), s("123m456m789m5z 5z | pon 111z")),
    ("hua_pai", H1 + " flowers=1", H1),
]


@pytest.mark.parametrize("key,hand,miss", CASES, ids=[c[0] for c in CASES])
def test_each_fan_scores_on_its_hand_and_not_on_the_near_miss(key, hand, miss):
    assert key in fan_keys("tiao72", hand)
    result = score("tiao72", miss)
    assert result.is_win and key not in {s.key for s in result.fans}


def test_every_reachable_tiao72_fan_has_a_case():
    from mahjong.engine.fans import TABLES

    assert {c[0] for c in CASES} == TABLES["tiao72"].keys() - UNREACHABLE


def test_the_gb_supplement_can_be_switched_off():
    off = {"options": {"gb_supplement": False}}
    assert "qi_dui" in fan_keys("tiao72", s("113355779m1122z 9m"))
    keys = fan_keys("tiao72", s("113355779m1122z 9m"), off)
    assert "qi_dui" not in keys and keys  # seven pairs still wins, with its other fans


def test_last_tile_self_draw_is_hai_di_lao_yue_without_zi_mo():
    keys = fan_keys("tiao72", s("456789m1112z 2z tsumo last_tile | chi 123m"))
    assert "hai_di_lao_yue" in keys and "zi_mo" not in keys


def test_three_wind_pungs_absorb_their_terminal_pungs():
    keys = fan_keys("tiao72", s("111222333z123m5m 5m"))
    assert "san_feng_ke" in keys and "yao_jiu_ke" not in keys


@pytest.mark.parametrize(
    "hand,key,excluded",
    [
        (
            s("1122334455667m 7m tsumo"),
            "lian_qi_dui",
            {"qi_dui", "qing_yi_se", "bu_qiu_ren", "dan_diao", "men_qian_qing"},
        ),
        (s("1112345678999m 5m"), "jiu_lian_bao_deng", {"qing_yi_se", "men_qian_qing"}),
        (
            s("111122223333m5z 5z"),
            "yi_se_si_tong_shun",
            {"yi_se_san_tong_shun", "yi_ban_gao", "si_gui_yi", "yi_se_san_jie_gao"},
        ),
        (s("123m789m123m111z2z 2z"), "quan_dai_yao", {"duan_yao_jiu", "wu_zi"}),
        ("111222333555z6z 6z", "zi_yi_se", {"peng_peng_hu", "quan_dai_yao", "yao_jiu_ke"}),
        (s("111222333444z5m 5m"), "da_si_xi", {"san_feng_ke", "peng_peng_hu", "yao_jiu_ke"}),
        (H1 + " ting=tian_ting", "tian_ting", {"li_zhi"}),
        (H1 + " tsumo first_turn dealer", "tian_hu", {"zi_mo", "bu_qiu_ren"}),
    ],
)
def test_exclusions(hand, key, excluded):
    keys = fan_keys("tiao72", hand)
    assert key in keys and not excluded & set(keys)
