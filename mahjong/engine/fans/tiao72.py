"""tiao72 — the 72-tile 条子 game (RULES.md 7.4 with the corrections of 7.5, and the gb
supplement of 7.6 under option ``gb_supplement``, default on)."""

from __future__ import annotations

from ..tiles import FLOWERS
from . import predicates as p
from .table import Condition, Fan, FanTable

SEASONS, PLANTS = FLOWERS[:4], FLOWERS[4:]


def supplement(count: Condition) -> Condition:
    """A 7.6 fan: scores only while option ``gb_supplement`` is on."""
    return p.needs(*getattr(count, "needs", ()))(
        lambda f: f.options.get("gb_supplement", True) and count(f)
    )


_yao_jiu_ke = p.yao_jiu_pungs()  # no seat or round winds in this ruleset


_replacement_win = p.when("replacement")  # 7.3.3: flower replacements count too


FIRST_TURN_EXTRAS = ("dan_diao", "bian_zhang", "kan_zhang", "zi_mo", "bu_qiu_ren")

FANS = (
    Fan(
        "ba_xian_guo_hai",
        "八仙过海",
        "Eight immortals",
        88,
        p.flowers_held(FLOWERS),
        ("mei_lan_zhu_ju", "chun_xia_qiu_dong"),
        flower=True,
    ),
    Fan(
        "da_san_yuan",
        "大三元",
        "Big three dragons",
        88,
        p.big_three_dragons,
        ("xiao_san_yuan", "shuang_jian_ke", "jian_ke"),
    ),
    Fan(
        "jiu_lian_bao_deng",
        "九莲宝灯",
        "Nine gates",
        88,
        p.nine_gates,
        ("qing_yi_se", "bu_qiu_ren", "men_qian_qing", "wu_zi"),
        excludes_one=("yao_jiu_ke",),
    ),
    Fan("lv_yi_se", "绿一色", "All green", 88, p.all_green, ("hun_yi_se",)),
    Fan(
        "si_gang",
        "四杠",
        "Four kongs",
        88,
        p.kong_total(4),
        (
            "shuang_an_gang",
            "shuang_ming_gang",
            "an_gang",
            "ming_gang",
            "san_gang",
            "peng_peng_hu",
            "dan_diao",
        ),
    ),
    Fan(
        "da_si_xi",
        "大四喜",
        "Big four winds",
        88,
        supplement(p.big_four_winds),
        ("san_feng_ke", "peng_peng_hu", "yao_jiu_ke"),
    ),
    Fan(
        "lian_qi_dui",
        "连七对",
        "Seven shifted pairs",
        88,
        supplement(p.shifted_pairs),
        ("qing_yi_se", "qi_dui", "bu_qiu_ren", "men_qian_qing", "dan_diao", "wu_zi"),
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
        ("peng_peng_hu", "quan_dai_yao", "yao_jiu_ke"),
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
        "si_an_ke",
        "四暗刻",
        "Four concealed pungs",
        64,
        p.concealed_pungs(4),
        ("men_qian_qing", "peng_peng_hu", "bu_qiu_ren", "san_an_ke", "shuang_an_ke"),
    ),
    Fan(
        "xiao_si_xi",
        "小四喜",
        "Little four winds",
        64,
        supplement(p.combo("xiao_si_xi")),
        ("san_feng_ke", "yao_jiu_ke"),
    ),
    Fan(
        "tian_hu",
        "天胡",
        "Heavenly win",
        48,
        p.first_turn(dealer=True, tsumo=True),
        FIRST_TURN_EXTRAS,
    ),
    Fan(
        "yi_se_si_tong_shun",
        "一色四同顺",
        "Quadruple chow",
        48,
        p.combo("yi_se_si_tong_shun"),
        ("yi_se_san_jie_gao", "yi_se_san_tong_shun", "yi_ban_gao", "si_gui_yi"),
    ),
    Fan(
        "yi_se_si_jie_gao",
        "一色四节高",
        "Four shifted pungs",
        48,
        p.combo("yi_se_si_jie_gao"),
        ("yi_se_san_tong_shun", "peng_peng_hu", "yi_se_san_jie_gao"),
    ),
    Fan(
        "di_hu",
        "地胡",
        "Earthly win",
        32,
        p.first_turn(dealer=False, tsumo=True),
        FIRST_TURN_EXTRAS,
    ),
    Fan(
        "yi_se_si_bu_gao",
        "一色四步高",
        "Four shifted chows",
        32,
        p.combo("yi_se_si_bu_gao"),
        ("yi_se_san_bu_gao", "lao_shao_fu", "lian_liu"),
    ),
    Fan(
        "hun_yao_jiu",
        "混幺九",
        "All terminals and honors",
        32,
        supplement(p.terminals_and_honors),
        ("peng_peng_hu", "yao_jiu_ke", "quan_dai_yao"),
    ),
    Fan(
        "san_gang",
        "三杠",
        "Three kongs",
        32,
        supplement(p.kong_total(3)),
        ("shuang_ming_gang", "ming_gang", "shuang_an_gang", "an_gang"),
    ),
    Fan("ren_hu", "人胡", "Human win", 24, p.first_turn(dealer=False, tsumo=False)),
    Fan(
        "yi_se_san_tong_shun",
        "一色三同顺",
        "Triple chow",
        24,
        p.combo("yi_se_san_tong_shun"),
        ("yi_se_san_jie_gao", "yi_ban_gao"),
    ),
    Fan(
        "yi_se_san_jie_gao",
        "一色三节高",
        "Three shifted pungs",
        24,
        p.combo("yi_se_san_jie_gao"),
        ("yi_se_san_tong_shun",),
    ),
    Fan("qing_yi_se", "清一色", "Full flush", 24, p.full_flush, ("wu_zi",)),
    Fan(
        "qi_dui",
        "七对",
        "Seven pairs",
        24,
        supplement(p.seven_pairs),
        ("bu_qiu_ren", "men_qian_qing", "dan_diao"),
    ),
    Fan(
        "quan_shuang_ke",
        "全双刻",
        "All even pungs",
        24,
        supplement(p.even_pungs),
        ("peng_peng_hu", "duan_yao_jiu", "wu_zi"),
    ),
    Fan("quan_da", "全大", "Upper tiles", 24, supplement(p.ranks(7, 9)), ("wu_zi", "da_yu_wu")),
    Fan(
        "quan_zhong",
        "全中",
        "Middle tiles",
        24,
        supplement(p.ranks(4, 6)),
        ("duan_yao_jiu", "wu_zi"),
    ),
    Fan("quan_xiao", "全小", "Lower tiles", 24, supplement(p.ranks(1, 3)), ("wu_zi", "xiao_yu_wu")),
    Fan(
        "san_an_ke", "三暗刻", "Three concealed pungs", 16, p.concealed_pungs(3), ("shuang_an_ke",)
    ),
    Fan("tian_ting", "天听", "Heavenly ready", 16, p.when("tian_ting"), ("li_zhi",)),
    Fan(
        "qing_long", "清龙", "Pure straight", 16, p.combo("qing_long"), ("lian_liu", "lao_shao_fu")
    ),
    Fan("yi_se_san_bu_gao", "一色三步高", "Three shifted chows", 16, p.combo("yi_se_san_bu_gao")),
    Fan(
        "quan_dai_wu", "全带五", "All fives", 16, supplement(p.all_fives), ("duan_yao_jiu", "wu_zi")
    ),
    Fan("san_feng_ke", "三风刻", "Three wind pungs", 12, p.combo("san_feng_ke")),
    Fan("da_yu_wu", "大于五", "Upper four", 12, supplement(p.ranks(6, 9)), ("wu_zi",)),
    Fan("xiao_yu_wu", "小于五", "Lower four", 12, supplement(p.ranks(1, 4)), ("wu_zi",)),
    Fan("tui_bu_dao", "推不倒", "Reversible tiles", 8, supplement(p.reversible)),
    Fan("hai_di_lao_yue", "海底捞月", "Last tile", 8, supplement(p.when("last_tile")), ("zi_mo",)),
    Fan(
        "gang_shang_kai_hua",
        "杠上开花",
        "Win on replacement",
        8,
        supplement(_replacement_win),
        ("zi_mo",),
    ),
    Fan(
        "qiang_gang_he",
        "抢杠和",
        "Robbing the kong",
        8,
        supplement(p.when("robbing")),
        ("he_jue_zhang",),
    ),
    Fan("hun_yi_se", "混一色", "Half flush", 6, p.half_flush),
    Fan("quan_qiu_ren", "全求人", "Melded hand", 6, p.when("all_melded", "discard"), ("dan_diao",)),
    Fan("peng_peng_hu", "碰碰和", "All pungs", 6, p.all_pungs),
    Fan(
        "shuang_an_gang",
        "双暗杠",
        "Two concealed kongs",
        6,
        p.kongs(concealed=2),
        ("an_gang", "shuang_an_ke"),
    ),
    Fan("shuang_jian_ke", "双箭刻", "Two dragon pungs", 6, p.combo("shuang_jian_ke"), ("jian_ke",)),
    Fan("quan_dai_yao", "全带幺", "Outside hand", 4, p.outside_hand, ("duan_yao_jiu", "wu_zi")),
    Fan("he_jue_zhang", "和绝张", "Last tile", 4, p.when("last_of_kind")),
    Fan(
        "bu_qiu_ren",
        "不求人",
        "Fully concealed self-draw",
        4,
        p.when("concealed", "tsumo"),
        ("zi_mo", "men_qian_qing"),
    ),
    Fan("shuang_ming_gang", "双明杠", "Two exposed kongs", 4, p.kongs(melded=2), ("ming_gang",)),
    Fan("li_zhi", "立直", "Riichi", 2, p.when("ready", "concealed")),
    Fan("duan_yao_jiu", "断幺九", "All simples", 2, p.all_simples, ("wu_zi",)),
    Fan("ping_hu", "平胡", "All chows", 2, p.all_chows_number_pair, ("wu_zi",)),
    Fan("si_gui_yi", "四归一", "Tile hog", 2, p.tile_hogs),
    Fan("men_qian_qing", "门前清", "Concealed hand", 2, p.when("concealed", "discard")),
    Fan("shuang_an_ke", "双暗刻", "Two concealed pungs", 2, p.concealed_pungs(2)),
    Fan("jian_ke", "箭刻", "Dragon pung", 2, p.dragon_pungs),
    Fan("an_gang", "暗杠", "Concealed kong", 2, p.kongs(concealed=1)),
    Fan("er_wu_ba_jiang", "二五八将", "2-5-8 pair", 1, p.pair_of(2, 5, 8)),
    Fan("yao_jiu_tou", "幺九头", "Terminal pair", 1, p.pair_of(1, 9)),
    Fan("mei_lan_zhu_ju", "梅兰竹菊", "Four plants", 1, p.flowers_held(PLANTS), flower=True),
    Fan("chun_xia_qiu_dong", "春夏秋冬", "Four seasons", 1, p.flowers_held(SEASONS), flower=True),
    Fan("wu_zi", "无字", "No honors", 1, p.no_honors),
    Fan("yi_ban_gao", "一般高", "Pure double chow", 1, p.combo("yi_ban_gao")),
    Fan("lian_liu", "六连张", "Short straight", 1, p.combo("lian_liu")),
    Fan("bian_zhang", "镶边", "Edge wait", 1, p.wait_is("bian_zhang")),
    Fan("kan_zhang", "嵌单", "Closed wait", 1, p.wait_is("kan_zhang")),
    Fan("dan_diao", "单钓", "Single wait", 1, p.wait_is("dan_diao_jiang")),
    Fan("lao_shao_fu", "老少配", "Two terminal chows", 1, p.combo("lao_shao_fu")),
    Fan("yao_jiu_ke", "幺九刻", "Terminal/honor pung", 1, supplement(_yao_jiu_ke)),
    Fan("zi_mo", "自摸", "Self-draw", 1, p.when("tsumo")),
    Fan("ming_gang", "明杠", "Exposed kong", 1, p.kongs(melded=1)),
    Fan("hua_pai", "花牌", "Flower", 1, p.flower_count, flower=True),
)

TABLE = FanTable("tiao72", FANS)
