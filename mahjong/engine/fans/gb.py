"""gb — the 81 fans of Chinese Official mahjong plus 明暗杠 (RULES.md 8.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import predicates as p
from .table import Fan, FanTable

if TYPE_CHECKING:
    from .facts import Facts


_yao_jiu_ke = p.yao_jiu_pungs(lambda f: (f.ctx.round_wind, f.ctx.seat_wind))


@p.needs("kong")
def _ming_an_gang(f: Facts) -> bool:
    """Option ``ming_an_gang``: one melded + one concealed kong; off, they score 明杠 + 暗杠."""
    return f.options.get("ming_an_gang", True) and f.melded_kongs == 1 and f.concealed_kongs == 1


@p.needs("chow", "pair", "no_pung")
def _ping_hu(f: Facts) -> int:
    """Four chows and a number pair; in 组合龙 + chow + pair the knitted nine read as
    three chows (as the competition calculators count it)."""
    if f.form == "zu_he_long":
        return int(len(f.sets) == 1 and bool(f.chows) and f.pair is not None and f.pair < 27)
    return int(p.all_chows_number_pair(f))


FANS = (
    Fan(
        "da_si_xi",
        "大四喜",
        "Big four winds",
        88,
        p.big_four_winds,
        ("quan_feng_ke", "men_feng_ke", "san_feng_ke", "peng_peng_hu", "yao_jiu_ke"),
    ),
    Fan(
        "da_san_yuan",
        "大三元",
        "Big three dragons",
        88,
        p.big_three_dragons,
        ("jian_ke", "shuang_jian_ke"),
    ),
    Fan("lv_yi_se", "绿一色", "All green", 88, p.all_green, ("hun_yi_se",)),
    Fan(
        "jiu_lian_bao_deng",
        "九莲宝灯",
        "Nine gates",
        88,
        p.nine_gates,
        ("qing_yi_se", "bu_qiu_ren", "men_qian_qing", "wu_zi"),
        excludes_one=("yao_jiu_ke",),
    ),
    Fan(
        "si_gang",
        "四杠",
        "Four kongs",
        88,
        p.kong_total(4),
        (
            "san_gang",
            "shuang_ming_gang",
            "ming_gang",
            "shuang_an_gang",
            "an_gang",
            "peng_peng_hu",
            "dan_diao_jiang",
        ),
    ),
    Fan(
        "lian_qi_dui",
        "连七对",
        "Seven shifted pairs",
        88,
        p.shifted_pairs,
        ("qing_yi_se", "bu_qiu_ren", "dan_diao_jiang", "qi_dui", "men_qian_qing", "wu_zi"),
    ),
    Fan(
        "shi_san_yao",
        "十三幺",
        "Thirteen orphans",
        88,
        p.thirteen_orphans,
        ("wu_men_qi", "bu_qiu_ren", "dan_diao_jiang", "men_qian_qing", "hun_yao_jiu"),
    ),
    Fan(
        "qing_yao_jiu",
        "清幺九",
        "All terminals",
        64,
        p.all_terminals,
        (
            "peng_peng_hu",
            "shuang_tong_ke",
            "san_tong_ke",
            "wu_zi",
            "yao_jiu_ke",
            "quan_dai_yao",
            "hun_yao_jiu",
        ),
    ),
    Fan(
        "xiao_si_xi",
        "小四喜",
        "Little four winds",
        64,
        p.combo("xiao_si_xi"),
        ("san_feng_ke", "yao_jiu_ke"),
    ),
    Fan(
        "xiao_san_yuan",
        "小三元",
        "Little three dragons",
        64,
        p.combo("xiao_san_yuan"),
        ("jian_ke", "shuang_jian_ke"),
    ),
    Fan(
        "zi_yi_se",
        "字一色",
        "All honors",
        64,
        p.all_honors,
        ("peng_peng_hu", "quan_dai_yao", "yao_jiu_ke", "hun_yao_jiu"),
    ),
    Fan(
        "si_an_ke",
        "四暗刻",
        "Four concealed pungs",
        64,
        p.concealed_pungs(4),
        ("men_qian_qing", "peng_peng_hu", "san_an_ke", "shuang_an_ke", "bu_qiu_ren"),
    ),
    Fan(
        "yi_se_shuang_long_hui",
        "一色双龙会",
        "Pure terminal chows",
        64,
        p.combo("yi_se_shuang_long_hui"),
        ("ping_hu", "qi_dui", "qing_yi_se", "yi_ban_gao", "lao_shao_fu", "wu_zi"),
    ),
    Fan(
        "yi_se_si_tong_shun",
        "一色四同顺",
        "Quadruple chow",
        48,
        p.combo("yi_se_si_tong_shun"),
        ("yi_se_san_jie_gao", "yi_ban_gao", "si_gui_yi", "yi_se_san_tong_shun"),
    ),
    Fan(
        "yi_se_si_jie_gao",
        "一色四节高",
        "Four pure shifted pungs",
        48,
        p.combo("yi_se_si_jie_gao"),
        ("yi_se_san_tong_shun", "peng_peng_hu", "yi_se_san_jie_gao"),
    ),
    Fan(
        "yi_se_si_bu_gao",
        "一色四步高",
        "Four pure shifted chows",
        32,
        p.combo("yi_se_si_bu_gao"),
        ("yi_se_san_bu_gao", "lian_liu", "lao_shao_fu"),
    ),
    Fan(
        "san_gang",
        "三杠",
        "Three kongs",
        32,
        p.kong_total(3),
        ("shuang_ming_gang", "ming_gang", "shuang_an_gang", "an_gang"),
    ),
    Fan(
        "hun_yao_jiu",
        "混幺九",
        "All terminals and honors",
        32,
        p.terminals_and_honors,
        ("peng_peng_hu", "yao_jiu_ke", "quan_dai_yao"),
    ),
    Fan(
        "qi_dui",
        "七对",
        "Seven pairs",
        24,
        p.seven_pairs,
        ("bu_qiu_ren", "dan_diao_jiang", "men_qian_qing"),
    ),
    Fan(
        "qi_xing_bu_kao",
        "七星不靠",
        "Greater honors and knitted tiles",
        24,
        p.greater_honors,
        ("wu_men_qi", "bu_qiu_ren", "dan_diao_jiang", "quan_bu_kao", "men_qian_qing"),
    ),
    Fan(
        "quan_shuang_ke",
        "全双刻",
        "All even pungs",
        24,
        p.even_pungs,
        ("peng_peng_hu", "duan_yao", "wu_zi"),
    ),
    Fan("qing_yi_se", "清一色", "Full flush", 24, p.full_flush, ("wu_zi", "que_yi_men")),
    Fan(
        "yi_se_san_tong_shun",
        "一色三同顺",
        "Pure triple chow",
        24,
        p.combo("yi_se_san_tong_shun"),
        ("yi_se_san_jie_gao", "yi_ban_gao"),
    ),
    Fan(
        "yi_se_san_jie_gao",
        "一色三节高",
        "Pure shifted pungs",
        24,
        p.combo("yi_se_san_jie_gao"),
        ("yi_se_san_tong_shun",),
    ),
    Fan("quan_da", "全大", "Upper tiles", 24, p.ranks(7, 9), ("wu_zi", "da_yu_wu")),
    Fan("quan_zhong", "全中", "Middle tiles", 24, p.ranks(4, 6), ("duan_yao", "wu_zi")),
    Fan("quan_xiao", "全小", "Lower tiles", 24, p.ranks(1, 3), ("wu_zi", "xiao_yu_wu")),
    Fan(
        "qing_long", "清龙", "Pure straight", 16, p.combo("qing_long"), ("lian_liu", "lao_shao_fu")
    ),
    Fan(
        "san_se_shuang_long_hui",
        "三色双龙会",
        "Three-suited terminal chows",
        16,
        p.combo("san_se_shuang_long_hui"),
        ("xi_xiang_feng", "lao_shao_fu", "wu_zi", "ping_hu"),
    ),
    Fan("yi_se_san_bu_gao", "一色三步高", "Pure shifted chows", 16, p.combo("yi_se_san_bu_gao")),
    Fan("quan_dai_wu", "全带五", "All fives", 16, p.all_fives, ("duan_yao", "wu_zi")),
    Fan("san_tong_ke", "三同刻", "Triple pung", 16, p.combo("san_tong_ke"), ("shuang_tong_ke",)),
    Fan(
        "san_an_ke", "三暗刻", "Three concealed pungs", 16, p.concealed_pungs(3), ("shuang_an_ke",)
    ),
    Fan(
        "quan_bu_kao",
        "全不靠",
        "Lesser honors and knitted tiles",
        12,
        p.lesser_honors,
        ("wu_men_qi", "bu_qiu_ren", "dan_diao_jiang", "men_qian_qing"),
    ),
    Fan("zu_he_long", "组合龙", "Knitted straight", 12, p.knitted_straight),
    Fan("da_yu_wu", "大于五", "Upper four", 12, p.ranks(6, 9), ("wu_zi",)),
    Fan("xiao_yu_wu", "小于五", "Lower four", 12, p.ranks(1, 4), ("wu_zi",)),
    Fan("san_feng_ke", "三风刻", "Big three winds", 12, p.combo("san_feng_ke")),
    Fan("hua_long", "花龙", "Mixed straight", 8, p.combo("hua_long")),
    Fan("tui_bu_dao", "推不倒", "Reversible tiles", 8, p.reversible, ("que_yi_men",)),
    Fan(
        "san_se_san_tong_shun",
        "三色三同顺",
        "Mixed triple chow",
        8,
        p.combo("san_se_san_tong_shun"),
        ("xi_xiang_feng",),
    ),
    Fan(
        "san_se_san_jie_gao", "三色三节高", "Mixed shifted pungs", 8, p.combo("san_se_san_jie_gao")
    ),
    Fan("wu_fan_he", "无番和", "Chicken hand", 8, lambda f: 0),
    Fan(
        "miao_shou_hui_chun",
        "妙手回春",
        "Last tile draw",
        8,
        p.when("tsumo", "last_tile"),
        ("zi_mo",),
    ),
    Fan("hai_di_lao_yue", "海底捞月", "Last tile claim", 8, p.when("discard", "last_tile")),
    Fan(
        "gang_shang_kai_hua",
        "杠上开花",
        "Out with replacement tile",
        8,
        p.when("kong_flower"),
        ("zi_mo",),
    ),
    Fan("qiang_gang_he", "抢杠和", "Robbing the kong", 8, p.when("robbing"), ("he_jue_zhang",)),
    Fan("peng_peng_hu", "碰碰和", "All pungs", 6, p.all_pungs),
    Fan("hun_yi_se", "混一色", "Half flush", 6, p.half_flush),
    Fan("san_se_san_bu_gao", "三色三步高", "Mixed shifted chows", 6, p.combo("san_se_san_bu_gao")),
    Fan("wu_men_qi", "五门齐", "All types", 6, p.all_types),
    Fan(
        "quan_qiu_ren",
        "全求人",
        "Melded hand",
        6,
        p.when("all_melded", "discard"),
        ("dan_diao_jiang",),
    ),
    Fan(
        "shuang_an_gang",
        "双暗杠",
        "Two concealed kongs",
        6,
        p.kongs(concealed=2),
        ("an_gang", "shuang_an_ke"),
    ),
    Fan("shuang_jian_ke", "双箭刻", "Two dragon pungs", 6, p.combo("shuang_jian_ke"), ("jian_ke",)),
    Fan(
        "ming_an_gang",
        "明暗杠",
        "Concealed and melded kong",
        5,
        _ming_an_gang,
        ("ming_gang", "an_gang"),
    ),
    Fan("quan_dai_yao", "全带幺", "Outside hand", 4, p.outside_hand),
    Fan(
        "bu_qiu_ren",
        "不求人",
        "Fully concealed hand",
        4,
        p.when("concealed", "tsumo"),
        replaces=("zi_mo", "men_qian_qing"),
    ),
    Fan("shuang_ming_gang", "双明杠", "Two melded kongs", 4, p.kongs(melded=2), ("ming_gang",)),
    Fan("he_jue_zhang", "和绝张", "Last tile", 4, p.when("last_of_kind")),
    Fan("jian_ke", "箭刻", "Dragon pung", 2, p.dragon_pungs),
    Fan("quan_feng_ke", "圈风刻", "Prevalent wind", 2, p.pung_of(lambda ctx: ctx.round_wind)),
    Fan("men_feng_ke", "门风刻", "Seat wind", 2, p.pung_of(lambda ctx: ctx.seat_wind)),
    Fan("men_qian_qing", "门前清", "Concealed hand", 2, p.when("concealed", "discard")),
    Fan("ping_hu", "平和", "All chows", 2, _ping_hu, ("wu_zi",)),
    Fan("si_gui_yi", "四归一", "Tile hog", 2, p.tile_hogs),
    Fan("shuang_tong_ke", "双同刻", "Double pung", 2, p.combo("shuang_tong_ke")),
    Fan("shuang_an_ke", "双暗刻", "Two concealed pungs", 2, p.concealed_pungs(2)),
    Fan("an_gang", "暗杠", "Concealed kong", 2, p.kongs(concealed=1)),
    Fan("duan_yao", "断幺", "All simples", 2, p.all_simples, ("wu_zi",)),
    Fan("yi_ban_gao", "一般高", "Pure double chow", 1, p.combo("yi_ban_gao")),
    Fan("xi_xiang_feng", "喜相逢", "Mixed double chow", 1, p.combo("xi_xiang_feng")),
    Fan("lian_liu", "连六", "Short straight", 1, p.combo("lian_liu")),
    Fan("lao_shao_fu", "老少副", "Two terminal chows", 1, p.combo("lao_shao_fu")),
    Fan("yao_jiu_ke", "幺九刻", "Pung of terminals or honors", 1, _yao_jiu_ke),
    Fan("ming_gang", "明杠", "Melded kong", 1, p.kongs(melded=1)),
    Fan("que_yi_men", "缺一门", "One voided suit", 1, p.one_voided_suit),
    Fan("wu_zi", "无字", "No honors", 1, p.no_honors),
    Fan("bian_zhang", "边张", "Edge wait", 1, p.wait_is("bian_zhang")),
    Fan("kan_zhang", "坎张", "Closed wait", 1, p.wait_is("kan_zhang")),
    Fan("dan_diao_jiang", "单钓将", "Single wait", 1, p.wait_is("dan_diao_jiang")),
    Fan("zi_mo", "自摸", "Self-drawn", 1, p.when("tsumo")),
    Fan("hua_pai", "花牌", "Flower", 1, p.flower_count, flower=True),
)

TABLE = FanTable("gb", FANS, fallback="wu_fan_he")
