"""gb (RULES.md 8.2): every fan has a hand that scores it and a near miss that does not;
the exclusions, the minimum fan and the 8.4 counting principles."""

import pytest
from test_fans_support import fan_keys, score

# key, a hand that scores it, a near miss that does not
CASES = [
    ("da_si_xi", "111222333444z5m 5m", "111222333z555z5m 5m"),
    ("da_san_yuan", "555666777z123m9p 9p", "555666z123m456p9p 9p"),
    ("lv_yi_se", "223344666888s6z 6z", "223344666777s6z 6z"),
    ("jiu_lian_bao_deng", "1112345678999m 5m", "1112345678899m 9m"),
    (
        "si_gang",
        "5m 5m | kan 1111m, kan 2222p, ankan 3333s, kan 4444z",
        "55m55z 5z | kan 1111m, kan 2222p, ankan 3333s",
    ),
    ("lian_qi_dui", "1122334455667m 7m", "1122334455668m 8m"),
    ("shi_san_yao", "19m19p19s1234567z 1m", "1199m1199p1122z1s 1s"),
    ("qing_yao_jiu", "111999m111999p1s 1s", "111999m111999p1z 1z"),
    ("xiao_si_xi", "111222333z4z123m 4z", "111222333z5z123m 5z"),
    ("xiao_san_yuan", "555666z7z123m456p 7z", "555666z1z123m456p 1z"),
    ("zi_yi_se", "111222333555z6z 6z", "111222333z555z1m 1m"),
    ("si_an_ke", "111m222p333s444z5z 5z tsumo", "222p333s444z5z 5z tsumo | pon 111m"),
    ("yi_se_shuang_long_hui", "1122335778899m 5m", "112233778899m5p 5p"),
    ("yi_se_si_tong_shun", "111122223333m5p 5p", "111222333456m5p 5p"),
    ("yi_se_si_jie_gao", "111222333444m5p 5p", "111222333555m5p 5p"),
    ("yi_se_si_bu_gao", "122333444556m5p 5p", "122333445567m5p 5p"),
    (
        "san_gang",
        "456m5z 5z | kan 1111m, kan 2222p, kan 3333s",
        "456m5z 5z | kan 1111m, kan 2222p, pon 333s",
    ),
    ("hun_yao_jiu", "111999m111p9p111z 9p", "111999m111p9p111s 9p"),
    ("qi_dui", "113355779m1122z 9m", "123m456p789s1122z 1z"),
    ("qi_xing_bu_kao", "147m258p1234567z 3s", "147m258p369s1234z 5z"),
    ("quan_shuang_ke", "222444m666p888s2p 2p", "333444m666p888s2p 2p"),
    ("qing_yi_se", "1233455677899m 9m", "123345567789m9p 9p"),
    ("yi_se_san_tong_shun", "112233m456p9s 9s | chi 123m", "122334m456p9s 9s | chi 123m"),
    ("yi_se_san_jie_gao", "333444m456p5z 5z | pon 222m", "333444m456p5z 5z | pon 111m"),
    ("quan_da", "777888999m789p9s 9s", "777888999m678p9s 9s"),
    ("quan_zhong", "444555666m456p5s 5s", "444555666m345p5s 5s"),
    ("quan_xiao", "111222333m123p3s 3s", "111222333m234p3s 3s"),
    ("qing_long", "123456789m123p5s 5s", "123456m789p123p5s 5s"),
    ("san_se_shuang_long_hui", "123789m123789p5s 5s", "123789m123789p1s 1s"),
    ("yi_se_san_bu_gao", "123234345m789p5s 5s", "123234456m789p5s 5s"),
    ("quan_dai_wu", "345m456p567s555p5s 5s", "234m456p567s555p5s 5s"),
    ("san_tong_ke", "111m111p111s234m5z 5z", "111m111p222s234m5z 5z"),
    ("san_an_ke", "111m222p333s456m5z 5z", "222p333s456m5z 5z | pon 111m"),
    ("quan_bu_kao", "147m258p36s12345z 6z", "147m25p3s1234567z 8p"),
    ("zu_he_long", "147m258p369s123m5z 5z", "123m456p789s123m5z 5z"),
    ("da_yu_wu", "666777888m678p9s 9s", "666777888m567p9s 9s"),
    ("xiao_yu_wu", "222333444m234p1s 1s", "222333444m345p1s 1s"),
    ("san_feng_ke", "111222333z123m5p 5p", "111222z555z123m5p 5p"),
    ("hua_long", "123m456p789s123m5z 5z", "123m456p789p123m5z 5z"),
    ("tui_bu_dao", "123345888p555s9s 9s", "123345888p777s9s 9s"),
    ("san_se_san_tong_shun", "123m123p123s555z9m 9m", "123m123p234s555z9m 9m"),
    ("san_se_san_jie_gao", "111m222p333s456m5z 5z", "111m222p444s456m5z 5z"),
    (
        "wu_fan_he",
        "78s33z 9s | chi 234m, chi 567p, pon 333s",
        "78s33z 9s tsumo | chi 234m, chi 567p, pon 333s",
    ),
    (
        "miao_shou_hui_chun",
        "123m456p789s1122z 1z tsumo last_tile",
        "123m456p789s1122z 1z last_tile",
    ),
    ("hai_di_lao_yue", "123m456p789s1122z 1z last_tile", "123m456p789s1122z 1z"),
    (
        "gang_shang_kai_hua",
        "456p789s1122z 1z tsumo kong_replacement | kan 1111m",
        "123m456p789s1122z 1z tsumo kong_replacement",
    ),
    ("qiang_gang_he", "123m456p78s11122z 9s robbing_kong", "123m456p789s1122z 1z robbing_kong"),
    (
        "peng_peng_hu",
        "111m5z 5z | pon 222p, pon 333s, pon 444z",
        "123m5z 5z | pon 222p, pon 333s, pon 444z",
    ),
    ("hun_yi_se", "123456789m111z5z 5z", "123456789m111z5p 5p"),
    ("san_se_san_bu_gao", "123m234p345s555z9m 9m", "123m234p456s555z9m 9m"),
    ("wu_men_qi", "123m345p567s111z5z 5z", "123m345p567s111z1p 1p"),
    (
        "quan_qiu_ren",
        "5z 5z | chi 123m, chi 456p, pon 777s, pon 111z",
        "5z 5z tsumo | chi 123m, chi 456p, pon 777s, pon 111z",
    ),
    (
        "shuang_an_gang",
        "123m5z 5z | ankan 1111p, ankan 2222s, chi 456m",
        "123m5z 5z | ankan 1111p, kan 2222s, chi 456m",
    ),
    ("shuang_jian_ke", "555666z123m456p9s 9s", "555z123m456p789s9s 9s"),
    (
        "ming_an_gang",
        "123m5z 5z | kan 1111p, ankan 2222s, chi 456m",
        "123m5z 5z | kan 1111p, kan 2222s, chi 456m",
    ),
    ("quan_dai_yao", "123m789p123s111z9m 9m", "123m789p234s111z9m 9m"),
    ("bu_qiu_ren", "123m456p789s1122z 1z tsumo", "456p789s1122z 1z tsumo | chi 123m"),
    (
        "shuang_ming_gang",
        "123m5z 5z | kan 1111p, kan 2222s, chi 456m",
        "123m5z 5z | kan 1111p, pon 222s, chi 456m",
    ),
    ("he_jue_zhang", "123m456p78s11122z 9s last_of_kind", "123m456p789s1122z 1z last_of_kind"),
    ("jian_ke", "123m456p789s5552z 2z", "123m456p789s3332z 2z"),
    ("quan_feng_ke", "123m456p789s2225z 5z round=S", "123m456p789s2225z 5z round=N"),
    ("men_feng_ke", "123m456p789s2225z 5z seat=S", "123m456p789s2225z 5z seat=N"),
    ("men_qian_qing", "123m456p789s1122z 1z", "123m456p789s1122z 1z tsumo"),
    ("ping_hu", "123m456p789s234s5m 5m", "123m456p789s234s5z 5z"),
    ("si_gui_yi", "111123m456p789s5z 5z", "234m456p789s5z 5z | kan 1111m"),
    ("shuang_tong_ke", "222m222p789s111z5z 5z", "222m333p789s111z5z 5z"),
    ("shuang_an_ke", "222m333p789s1155z 1z", "333p789s1155z 1z | pon 222m"),
    ("an_gang", "123m456p789s5z 5z | ankan 1111z", "123m456p789s5z 5z | kan 1111z"),
    ("duan_yao", "234m456p678s345s5m 5m", "234m456p678s789s5m 5m"),
    ("yi_ban_gao", "123123m456p789s5z 5z", "123234m456p789s5z 5z"),
    ("xi_xiang_feng", "123m123p456p789s5z 5z", "123m234p456p789s5z 5z"),
    ("lian_liu", "123456m789p234s5z 5z", "123567m789p234s5z 5z"),
    ("lao_shao_fu", "123789m456p234s5z 5z", "123678m456p234s5z 5z"),
    ("yao_jiu_ke", "111m456p789s234s5z 5z", "222m456p789s234s5z 5z"),
    ("ming_gang", "123m456p789s5z 5z | kan 1111z", "123m456p789s5z 5z | pon 111z"),
    ("que_yi_men", "123456m789p111z5z 5z", "123m456p789s111z5z 5z"),
    ("wu_zi", "123m456p789s222s9m 9m", "123m456p789s222s5z 5z"),
    ("bian_zhang", "12m456p789s234s55z 3m", "23m456p789s234s55z 4m"),
    ("kan_zhang", "13m456p789s234s55z 2m", "23m456p789s234s55z 4m"),
    ("dan_diao_jiang", "123m456p789s234s5z 5z", "123m456p789s2344s 4s"),
    (
        "zi_mo",
        "78s33z 9s tsumo | chi 234m, chi 567p, pon 333s",
        "78s33z 9s | chi 234m, chi 567p, pon 333s",
    ),
    ("hua_pai", "123m456p789s1122z 1z flowers=1f3f", "123m456p789s1122z 1z"),
]


@pytest.mark.parametrize("key,hand,miss", CASES, ids=[c[0] for c in CASES])
def test_each_fan_scores_on_its_hand_and_not_on_the_near_miss(key, hand, miss):
    assert key in fan_keys("gb", hand)
    result = score("gb", miss)
    assert result.is_win and key not in {s.key for s in result.fans}


def test_every_gb_fan_has_a_case():
    from mahjong.engine.fans import TABLES

    assert {c[0] for c in CASES} == TABLES["gb"].keys()


# A counted fan drops what it excludes, transitively through the excluded fans that hold.
EXCLUSIONS = [
    (
        "111999m111999p1s 1s",
        "qing_yao_jiu",
        {
            "peng_peng_hu",
            "wu_zi",
            "yao_jiu_ke",
            "quan_dai_yao",
            "hun_yao_jiu",
            "shuang_tong_ke",
            "san_tong_ke",
        },
    ),
    (
        "111222333444z5m 5m",
        "da_si_xi",
        {"quan_feng_ke", "men_feng_ke", "san_feng_ke", "peng_peng_hu", "yao_jiu_ke"},
    ),
    ("113355779m1122z 9m tsumo", "qi_dui", {"bu_qiu_ren", "dan_diao_jiang", "men_qian_qing"}),
    ("1233455677899m 9m", "qing_yi_se", {"wu_zi", "que_yi_men"}),
    (
        "5m 5m | ankan 1111m, ankan 2222p, kan 3333s, kan 4444z",
        "si_gang",
        {"shuang_an_gang", "shuang_an_ke", "shuang_ming_gang", "peng_peng_hu", "dan_diao_jiang"},
    ),
    ("123m456p789s234s5m 5m", "ping_hu", {"wu_zi"}),
    ("444555666m456p5s 5s", "quan_zhong", {"duan_yao", "wu_zi"}),
    ("123456789m123p5s 5s", "qing_long", {"lian_liu", "lao_shao_fu"}),
    (
        "1122334455667m 7m tsumo",
        "lian_qi_dui",
        {"qi_dui", "qing_yi_se", "bu_qiu_ren", "men_qian_qing", "dan_diao_jiang", "wu_zi"},
    ),
    (
        "1112345678999m 5m tsumo",
        "jiu_lian_bao_deng",
        {"qing_yi_se", "bu_qiu_ren", "men_qian_qing", "wu_zi"},
    ),
    (
        "111222333444m5p 5p",
        "yi_se_si_jie_gao",
        {"yi_se_san_jie_gao", "yi_se_san_tong_shun", "peng_peng_hu"},
    ),
    (
        "111122223333m5p 5p",
        "yi_se_si_tong_shun",
        {"yi_se_san_tong_shun", "yi_ban_gao", "si_gui_yi", "yi_se_san_jie_gao"},
    ),
    (
        "19m19p19s1234567z 1m tsumo",
        "shi_san_yao",
        {"wu_men_qi", "bu_qiu_ren", "dan_diao_jiang", "men_qian_qing", "hun_yao_jiu"},
    ),
    (
        "123789m123789p5s 5s",
        "san_se_shuang_long_hui",
        {"xi_xiang_feng", "lao_shao_fu", "wu_zi", "ping_hu"},
    ),
    ("123m123p123s555z9m 9m", "san_se_san_tong_shun", {"xi_xiang_feng"}),
    ("555666777z123m9p 9p", "da_san_yuan", {"jian_ke", "shuang_jian_ke"}),
    (
        "123m5z 5z | ankan 1111p, ankan 2222s, chi 456m",
        "shuang_an_gang",
        {"an_gang", "shuang_an_ke"},
    ),
]


@pytest.mark.parametrize("hand,key,excluded", EXCLUSIONS, ids=[e[1] for e in EXCLUSIONS])
def test_a_counted_fan_drops_the_fans_it_excludes(hand, key, excluded):
    keys = fan_keys("gb", hand)
    assert key in keys and not excluded & set(keys)


def test_self_draw_survives_the_fans_that_absorb_fully_concealed():
    """不求人 is 门前清 + 自摸: 七对 absorbs it, the self-draw still scores (every
    competition calculator counts 七对 + 自摸)."""
    assert fan_keys("gb", "113355779m1122z 9m tsumo") == {"qi_dui": 1, "hun_yi_se": 1, "zi_mo": 1}


def test_nine_gates_absorbs_one_terminal_pung_only():
    assert fan_keys("gb", "1112345678999m 5m")["yao_jiu_ke"] == 1


def test_round_and_seat_wind_pungs_are_not_also_terminal_pungs():
    keys = fan_keys("gb", "123m456p789s1115z 5z seat=E round=E")
    assert keys.get("quan_feng_ke") == 1 and keys.get("men_feng_ke") == 1
    assert "yao_jiu_ke" not in keys


def test_with_the_ming_an_gang_option_off_the_kongs_score_apart():
    hand = "123m5z 5z | kan 1111p, ankan 2222s, chi 456m"
    keys = fan_keys("gb", hand, {"options": {"ming_an_gang": False}})
    assert "ming_an_gang" not in keys and {"ming_gang", "an_gang"} <= set(keys)


# 8.4: the five counting principles
@pytest.mark.parametrize(
    "hand,expected",
    [
        # 就高不就低: 清龙 rather than 老少副 + 连六
        ("123345456789m5z 5z", {"qing_long": 1}),
        # 不得相同: one 喜相逢 with the 123p pair, not two
        ("123m123p123p789s5z 5z", {"yi_ban_gao": 1, "xi_xiang_feng": 1}),
        # 套算一次: 一般高, then 老少副 and 喜相逢 once each
        ("123123789m123s5z 5z", {"yi_ban_gao": 1, "lao_shao_fu": 1, "xi_xiang_feng": 1}),
        # 不拆移: 234s×3 is 一色三同顺, not also 一色三节高 or 双暗刻
        ("223344s123m5z 5z | chi 234s", {"yi_se_san_tong_shun": 1}),
    ],
)
def test_set_combinations_follow_the_five_principles(hand, expected):
    keys = fan_keys("gb", hand)
    combos = {
        "qing_long",
        "lao_shao_fu",
        "lian_liu",
        "yi_ban_gao",
        "xi_xiang_feng",
        "yi_se_san_tong_shun",
        "yi_se_san_jie_gao",
        "shuang_an_ke",
    }
    assert {k: v for k, v in keys.items() if k in combos} == expected


def test_a_hand_under_eight_fan_is_a_win_below_the_minimum():
    result = score("gb", "123m456p678s234s5z 5z flowers=3")
    assert result.is_win and result.below_minimum and not result.legal
    assert sum(s.points for s in result.fans if s.key == "hua_pai") == 3


def test_a_chicken_hand_is_a_legal_eight_fan_win():
    result = score("gb", "78s33z 9s | chi 234m, chi 567p, pon 333s")
    assert result.legal and result.total == 8


def test_a_non_winning_hand_is_a_value_not_an_error():
    result = score("gb", "123m456p789s1123z 5z")
    assert not result.is_win and not result.legal


@pytest.mark.parametrize(
    "hand,expected",
    [
        # 和绝张 is impossible while the hand holds another copy of the winning tile ...
        ("123m456p789s1122z 1z last_of_kind", set()),
        # ... and certain when the player's own melds show the other three
        ("78s55z 9s | chi 789s, chi 789s, chi 789s", {"he_jue_zhang"}),
        # 抢杠和 and 和绝张 do not combine
        ("123m456p78s11122z 9s robbing_kong last_of_kind", {"qiang_gang_he"}),
        # a robbed kong is never on a tile the robber holds
        ("123m456p789s1122z 1z robbing_kong", set()),
        # a kong-replacement win needs a kong
        ("456p789s1122z 1z tsumo kong_replacement | chi 123m", {"zi_mo"}),
    ],
)
def test_situation_flags_that_contradict_the_tiles_are_dropped(hand, expected):
    situational = {"he_jue_zhang", "qiang_gang_he", "gang_shang_kai_hua", "zi_mo"}
    assert set(fan_keys("gb", hand)) & situational == expected
