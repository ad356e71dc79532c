"""classic — 二人麻将 (RULES.md 4.4 and 4.5): additive small fans, and yakuman that are
each worth the cap and never combine with small fans. ``stage`` uses the same table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..shapes import LV_YI_SE_LOOSE
from ..tiles import EAST, NORTH, RED
from . import predicates as p
from .table import Condition, Fan, FanTable

if TYPE_CHECKING:
    from .facts import Facts

YAKUMAN = 13  # every yakuman is worth the cap (4.5)
RED_PEACOCK = frozenset({RED, 18, 22, 24, 26})  # 7z 1s 5s 7s 9s


# ----- shapes --------------------------------------------------------------------------
def identical_chow_pairs(f: Facts) -> int:
    """How many kinds of chow appear at least twice (一杯口 = 1, 两杯口 = 2)."""
    return sum(1 for n in Counter(f.chows).values() if n >= 2)


def same_number_chows_three_suits(f: Facts) -> bool:  # 三色同顺
    return any({c // 9 for c in f.chows if c % 9 == r} == {0, 1, 2} for r in range(7))


def same_number_pungs_three_suits(f: Facts) -> bool:  # 三色同刻
    numbers = [k for k in f.pungs if k < 27]
    return any({k // 9 for k in numbers if k % 9 == r} == {0, 1, 2} for r in range(9))


def shifted_pungs(f: Facts, length: int) -> bool:  # 三连刻 / 四连刻: one suit, consecutive
    numbers = sorted({k for k in f.pungs if k < 27})
    return any(
        all(k + i in numbers and (k + i) // 9 == k // 9 for i in range(length)) for k in numbers
    )


def pure_straight(f: Facts) -> bool:  # 一气通贯
    return any(all(s + 3 * i in f.chows for i in range(3)) for s in (0, 9, 18))


def outside(f: Facts, honors: bool) -> bool:
    return p.outside_hand(f) and f.has_honors == honors


def dragon_seven_pairs(f: Facts) -> bool:
    """龙七对: the winning tile is the fourth of a kind held three times (4.4)."""
    return p.seven_pairs(f) and f.ctx.hand.count(f.ctx.win) == 3


def two_sided_all_chows(f: Facts) -> bool:
    return p.all_chows_number_pair(f) and f.decomp.wait == "two_sided"


def honors_only_pungs(f: Facts) -> bool:
    return p.all_honors(f) and p.all_pungs(f)


def million_stones(f: Facts) -> bool:  # 百万石
    return (
        f.suits == {0}
        and not f.has_honors
        and sum((k % 9 + 1) * n for k, n in enumerate(f.counts)) >= 100
    )


def north_east_shinkansen(f: Facts) -> bool:
    return pure_straight(f) and {f.pair, *f.pungs} >= {EAST, NORTH} and f.pair in (EAST, NORTH)


def last_of_the_wall(tsumo: bool) -> Condition:
    """河底捞月 / 河底捞鱼: the last live-wall tile or discard, before any 海底捞月 phase."""

    @p.needs("last_tile")
    def last(f: Facts) -> bool:
        return f.ctx.last_tile and f.tsumo == tsumo and not f.ctx.haidi_phase

    return last


def _small(
    key: str, zh: str, en: str, value: int, count: Condition, excludes: Iterable[str] = ()
) -> Fan:
    return Fan(key, zh, en, value, count, tuple(excludes))


def _yakuman(key: str, zh: str, en: str, count: Condition) -> Fan:
    return Fan(key, zh, en, YAKUMAN, count, yakuman=True)


SMALL = (
    _small("tui_dao_hu", "推倒胡", "Basic win", 1, lambda f: 0),
    _small("men_qing", "门清", "Concealed hand", 1, p.when("concealed")),
    _small("tian_ting", "天听", "Heavenly ready", 2, p.when("tian_ting"), ["men_qing_bao_ting"]),
    _small(
        "men_qing_bao_ting",
        "门清报听",
        "Concealed ready declaration",
        1,
        p.when("ready", "concealed"),
    ),
    _small("ping_hu", "平和", "All chows", 1, two_sided_all_chows),
    _small("duan_yao_jiu", "断幺九", "All simples", 1, p.all_simples),
    _small("men_qing_zi_mo", "门清自摸", "Concealed self-draw", 1, p.when("concealed", "tsumo")),
    _small(
        "liang_bei_kou",
        "两杯口",
        "Twice pure double chow",
        4,
        lambda f: identical_chow_pairs(f) == 2,
        ["yi_bei_kou", "qi_dui_zi"],
    ),
    _small("yi_bei_kou", "一杯口", "Pure double chow", 2, lambda f: identical_chow_pairs(f) == 1),
    _small("long_qi_dui", "龙七对", "Dragon seven pairs", 6, dragon_seven_pairs, ["qi_dui_zi"]),
    _small("qi_dui_zi", "七对子", "Seven pairs", 3, p.seven_pairs),
    _small("peng_peng_hu", "碰碰胡", "All pungs", 2, p.all_pungs),
    _small("san_se_tong_shun", "三色同顺", "Mixed triple chow", 2, same_number_chows_three_suits),
    _small("san_an_ke", "三暗刻", "Three concealed pungs", 2, p.concealed_pungs(3)),
    _small("san_lian_ke", "三连刻", "Three shifted pungs", 3, lambda f: shifted_pungs(f, 3)),
    _small("san_se_tong_ke", "三色同刻", "Triple pung", 3, same_number_pungs_three_suits),
    _small(
        "hun_lao_tou",
        "混老头",
        "All terminals and honors",
        2,
        lambda f: p.terminals_and_honors(f) and p.all_pungs(f),
        ["hun_quan_dai_yao"],
    ),
    _small(
        "hun_quan_dai_yao",
        "混全带幺",
        "Outside hand (with honors)",
        3,
        lambda f: outside(f, honors=True),
    ),
    _small(
        "chun_quan_dai_yao", "纯全带幺", "Pure outside hand", 4, lambda f: outside(f, honors=False)
    ),
    _small("hun_yi_se", "混一色", "Half flush", 3, p.half_flush),
    _small("qing_yi_se", "清一色", "Full flush", 5, p.full_flush),
    _small("xiao_san_yuan", "小三元", "Little three dragons", 4, p.little_three_dragons),
    _small("yi_qi_tong_guan", "一气通贯", "Pure straight", 2, pure_straight),
    _small(
        "gang_shang_kai_hua", "杠上开花", "Win on kong replacement", 2, p.when("kong_replacement")
    ),
    _small("he_di_lao_yue", "河底捞月", "Last-tile self-draw", 1, last_of_the_wall(tsumo=True)),
    _small("he_di_lao_yu", "河底捞鱼", "Last-discard win", 1, last_of_the_wall(tsumo=False)),
    _small("hai_di_lao_yue", "海底捞月", "Post-draw win", 1, p.when("haidi_phase")),
    Fan("hua_pai", "花牌", "Flower", 1, p.flower_count, flower=True),
)

YAKUMANS = (
    _yakuman("tian_hu", "天和", "Heavenly hand", p.first_turn(dealer=True, tsumo=True)),
    _yakuman("di_hu", "地和", "Earthly hand", p.first_turn(dealer=False, tsumo=False)),
    _yakuman("ren_hu", "人和", "Human hand", p.first_turn(dealer=False, tsumo=True)),
    _yakuman("xiao_si_xi", "小四喜", "Little four winds", p.little_four_winds),
    _yakuman("da_si_xi", "大四喜", "Big four winds", p.big_four_winds),
    _yakuman("da_san_yuan", "大三元", "Big three dragons", p.big_three_dragons),
    _yakuman(
        "da_che_lun",
        "大车轮",
        "Big wheels",
        lambda f: p.seven_pairs(f) and p.full_flush(f) and p.all_simples(f),
    ),
    _yakuman("si_an_ke", "四暗刻", "Four concealed pungs", p.concealed_pungs(4)),
    _yakuman("si_lian_ke", "四连刻", "Four shifted pungs", lambda f: shifted_pungs(f, 4)),
    _yakuman("si_gang_zi", "四杠子", "Four kongs", p.kong_total(4)),
    _yakuman("bai_wan_dan", "百万石", "Million stones", million_stones),
    _yakuman("zi_yi_se", "字一色", "All honors", honors_only_pungs),
    _yakuman(
        "qing_lao_tou", "清老头", "All terminals", lambda f: p.all_terminals(f) and p.all_pungs(f)
    ),
    _yakuman(
        "lv_yi_se", "绿一色", "All green", lambda f: f.form == LV_YI_SE_LOOSE or p.all_green(f)
    ),
    _yakuman(
        "hong_kong_que",
        "红孔雀",
        "Red peacock",
        lambda f: f.kinds <= RED_PEACOCK and p.all_pungs(f),
    ),
    _yakuman("jiu_lian_bao_deng", "九莲宝灯", "Nine gates", p.nine_gates),
    _yakuman("guo_shi_wu_shuang", "国士无双", "Thirteen orphans", p.thirteen_orphans),
    _yakuman("dong_bei_xin_gan_xian", "东北新干线", "North-East Shinkansen", north_east_shinkansen),
)

TABLE = FanTable("classic", SMALL + YAKUMANS, fallback="tui_dao_hu")
