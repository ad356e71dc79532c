"""classic and stage (RULES.md 4.4, 4.5, 5.1): every fan and yakuman has a hand that
scores it and a near miss; yakuman never combine with small fans; the 13 cap.
Three-suit fans and the yakuman unreachable with 72 tiles are tested under stage."""

import pytest
from test_fans_support import fan_keys, score

H1 = "123456789m1112z 2z"  # 门清 一气通贯 混一色, won on a discard
MELDED = "456789m1112z 2z | chi 123m"
MELDED_READY = "456789m1112z 2z ting=ready | chi 123m"

CASES = [
    ("stage", "tui_dao_hu", "456p789s234s5z 5z | chi 123m", "123m456p789s234s5z 5z"),
    ("classic", "men_qing", H1, MELDED),
    ("classic", "men_qing_bao_ting", H1 + " ting=ready", MELDED_READY),
    ("classic", "tian_ting", H1 + " ting=tian_ting", H1 + " ting=ready"),
    ("classic", "ping_hu", "123456m234m56m99m 7m", "123456m234m12m99m 3m"),
    ("classic", "duan_yao_jiu", "234m567m234m56m88m 4m", "234m567m234m56m99m 4m"),
    ("classic", "men_qing_zi_mo", H1 + " tsumo", H1),
    ("classic", "hua_pai", H1 + " flowers=1f", H1),
    ("classic", "yi_bei_kou", "112233m456m789m1z 1z", "123234m456m789m1z 1z"),
    ("classic", "liang_bei_kou", "112233m778899m1z 1z", "112233m456789m1z 1z"),
    ("classic", "qi_dui_zi", "113355779m1122z 9m", H1),
    ("classic", "long_qi_dui", "111335577m1122z 1m", "1111335577m112z 2z"),
    (
        "classic",
        "peng_peng_hu",
        "111m444z5z 5z | pon 222m, pon 333m",
        "111m444z5z 5z | pon 222m, chi 345m",
    ),
    ("classic", "san_an_ke", "111222333z456m5m 5m", "222333z456m5m 5m | pon 111z"),
    (
        "classic",
        "san_lian_ke",
        "666m789m1z 1z | pon 444m, pon 555m",
        "777m123m1z 1z | pon 444m, pon 555m",
    ),
    ("stage", "san_se_tong_ke", "111m111p111s234m5z 5z", "111m111p222s234m5z 5z"),
    ("stage", "san_se_tong_shun", "123m123p123s555z9m 9m", "123m123p234s555z9m 9m"),
    ("classic", "hun_quan_dai_yao", "123m789m123m111z2z 2z", "234m789m123m111z2z 2z"),
    ("classic", "chun_quan_dai_yao", "123m789m123m999m1m 1m", "123m456m123m999m1m 1m"),
    ("classic", "hun_lao_tou", "111m999m111z22z33z 2z", "111m999m111z22z55m 2z"),
    ("classic", "hun_yi_se", H1, "1233455677899m 9m"),
    ("classic", "qing_yi_se", "1233455677899m 9m", H1),
    ("classic", "xiao_san_yuan", "555666z7z123m456m 7z", "555666z1z123m456m 1z"),
    ("classic", "yi_qi_tong_guan", H1, "123456m678m1112z 2z"),
    (
        "classic",
        "gang_shang_kai_hua",
        "456789m1112z 2z tsumo kong_replacement | kan 1111m",
        "456789m1112z 2z tsumo | kan 1111m",
    ),
    ("classic", "he_di_lao_yue", H1 + " tsumo last_tile", H1 + " tsumo last_tile haidi_phase"),
    ("classic", "he_di_lao_yu", H1 + " last_tile", H1),
    ("classic", "hai_di_lao_yue", H1 + " haidi_phase", H1),
    # yakuman
    ("classic", "tian_hu", H1 + " tsumo first_turn dealer", H1 + " tsumo first_turn"),
    ("classic", "di_hu", H1 + " first_turn", H1 + " first_turn dealer"),
    ("classic", "ren_hu", H1 + " tsumo first_turn", H1 + " tsumo"),
    ("classic", "xiao_si_xi", "111222333z4z123m 4z", "111222333z5z123m 5z"),
    ("classic", "da_si_xi", "111222333444z5m 5m", "111222333z4z123m 4z"),
    ("classic", "da_san_yuan", "555666777z123m9m 9m", "555666z7z123m456m 7z"),
    ("classic", "da_che_lun", "2233445566778m 8m", "1122334455667m 7m"),
    ("classic", "si_an_ke", "111222333z444m5m 5m tsumo", "111222333z44m55m 4m"),
    (
        "classic",
        "si_lian_ke",
        "222m5z 5z | pon 333m, pon 444m, pon 555m",
        "777m5z 5z | pon 333m, pon 444m, pon 555m",
    ),
    (
        "classic",
        "si_gang_zi",
        "5z 5z | kan 1111m, kan 2222m, kan 3333z, ankan 4444z",
        "55m55z 5z | kan 1111m, kan 2222m, ankan 4444z",
    ),
    ("classic", "bai_wan_dan", "666777888999m5m 5m", "555777888999m6m 6m"),
    ("classic", "zi_yi_se", "111222333555z6z 6z", "1122334455667z 7z"),
    ("stage", "qing_lao_tou", "111999m111999p1s 1s", "111999m111999p1z 1z"),
    ("stage", "lv_yi_se", "223344666888s6z 6z", "223344666777s6z 6z"),
    ("stage", "hong_kong_que", "111555777s777z9s 9s", "111333777s777z9s 9s"),
    ("classic", "jiu_lian_bao_deng", "1112345678999m 5m", "1112345678899m 9m"),
    ("stage", "guo_shi_wu_shuang", "19m19p19s1234567z 1m", "1199m1199p1122z1s 1s"),
    ("classic", "dong_bei_xin_gan_xian", "123456789m1114z 4z", "123456789m1113z 3z"),
]


@pytest.mark.parametrize("slug,key,hand,miss", CASES, ids=[c[1] for c in CASES])
def test_each_fan_scores_on_its_hand_and_not_on_the_near_miss(slug, key, hand, miss):
    assert key in fan_keys(slug, hand)
    result = score(slug, miss)
    assert result.is_win and key not in {s.key for s in result.fans}


def test_every_classic_fan_has_a_case():
    from mahjong.engine.fans import TABLES

    assert {c[1] for c in CASES} == TABLES["classic"].keys()


def test_small_fans_add_up():
    result = score("classic", H1 + " tsumo")
    assert {s.key for s in result.fans} == {
        "men_qing",
        "men_qing_zi_mo",
        "hun_yi_se",
        "yi_qi_tong_guan",
    }
    assert result.total == 1 + 1 + 3 + 2


def test_yakuman_never_combine_with_small_fans_and_score_the_cap():
    result = score("classic", "1112345678999m 5m tsumo flowers=2")
    assert [s.key for s in result.fans] == ["jiu_lian_bao_deng"]
    assert result.total == 13 and result.yakuman == ("jiu_lian_bao_deng",)


def test_several_yakuman_are_all_shown_and_still_score_13():
    result = score("classic", "111222333444z5m 5m tsumo first_turn dealer")
    assert set(result.yakuman) == {"tian_hu", "da_si_xi", "si_an_ke"}
    assert result.total == 13


def test_small_fans_are_capped_at_13():
    result = score("classic", "1122334455667m 7m tsumo ting=tian_ting flowers=1f2f3f")
    assert result.raw_total > 13 and result.total == 13


def test_the_set_reading_beats_seven_pairs_for_two_double_chows():
    keys = fan_keys("classic", "112233m778899m1z 1z")
    assert "liang_bei_kou" in keys and "qi_dui_zi" not in keys


def test_tui_dao_hu_ignores_flowers():
    keys = fan_keys("stage", "456p789s234s5z 5z flowers=1 | chi 123m")
    assert keys == {"tui_dao_hu": 1, "hua_pai": 1}


def test_a_robbed_kong_adds_no_self_draw_fan():
    keys = fan_keys("classic", "123456789m1112z 2z robbing_kong")
    assert "men_qing_zi_mo" not in keys


def test_at_the_cap_a_yakuman_reading_beats_small_fans():
    """Read as pungs this is 四暗刻 + 四连刻; read as chows its small fans (flowers
    included) add up to more than 13, and both cap at 13: the yakuman are shown."""
    result = score("classic", "111222333444m5m 5m tsumo ting=tian_ting flowers=1f2f3f4f5f6f7f8f")
    assert set(result.yakuman) == {"si_an_ke", "si_lian_ke"} and result.total == 13
