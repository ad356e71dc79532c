"""Fan conditions shared by several tables: one concept, one function. Each takes the
``Facts`` of one reading and returns a bool or a count."""

from __future__ import annotations

from ..shapes import (CHOW, PAIR, QI_XING_BU_KAO, QUAN_BU_KAO, SEVEN_PAIRS, THIRTEEN_ORPHANS,
                      ZU_HE_LONG)
from ..tiles import DRAGONS, GREEN, WINDS, is_dragon, is_terminal, is_wind, is_yaojiu

GREEN_KINDS = frozenset({19, 20, 21, 23, 25, GREEN})       # 2s 3s 4s 6s 8s 6z
REVERSIBLE_KINDS = frozenset({9, 10, 11, 12, 13, 16, 17,    # 1p-5p 8p 9p
                              19, 21, 22, 23, 25, 26, 31})  # 2s 4s-6s 8s 9s, 5z
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


# ----- tile classes over the whole hand -------------------------------------------------
def all_of(f, pred) -> bool:
    return all(pred(k) for k in f.kinds)


def one_number_suit(f) -> bool:
    return len(f.suits) == 1


def full_flush(f) -> bool:          # 清一色
    return one_number_suit(f) and not f.has_honors


def half_flush(f) -> bool:          # 混一色
    return one_number_suit(f) and f.has_honors


def all_honors(f) -> bool:          # 字一色 (tiles only; a table may add a form)
    return not f.suits


def all_terminals(f) -> bool:       # 清幺九 / 清老头
    return all_of(f, is_terminal)


def terminals_and_honors(f) -> bool:  # 混幺九 / 混老头: both present (3.15.7)
    return all_of(f, is_yaojiu) and f.has_honors and bool(f.suits)


def all_simples(f) -> bool:         # 断幺 / 断幺九
    return not any(is_yaojiu(k) for k in f.kinds)


def no_honors(f) -> bool:
    return not f.has_honors


def all_green(f) -> bool:
    return f.kinds <= GREEN_KINDS


def reversible(f) -> bool:
    return f.kinds <= REVERSIBLE_KINDS


def voided_suits(f) -> int:
    return 3 - len(f.suits)


def all_types(f) -> bool:           # 五门齐
    return (len(f.suits) == 3 and any(is_wind(k) for k in f.kinds)
            and any(is_dragon(k) for k in f.kinds))


def ranks_within(f, low: int, high: int) -> bool:
    """Only number tiles, all ranked low..high."""
    return not f.has_honors and all(low <= r <= high for r in f.ranks)


def tile_hogs(f) -> int:            # 四归一: four copies not used as a kong
    kongs = {s.first for s in f.kongs}
    return sum(1 for k, n in enumerate(f.counts) if n == 4 and k not in kongs)


# ----- sets and the pair ---------------------------------------------------------------
def chow_count(f) -> int:
    return len(f.chows)


def all_pungs(f) -> bool:           # 碰碰和
    return f.standard and not f.chows


def all_chows_number_pair(f) -> bool:  # 平和 shape (the wait is up to the table)
    return f.standard and len(f.chows) == len(f.sets) and f.pair is not None and f.pair < 27


def wind_pungs(f) -> int:
    return sum(1 for k in f.pungs if is_wind(k))


def dragon_pungs(f) -> int:
    return sum(1 for k in f.pungs if is_dragon(k))


def big_four_winds(f) -> bool:
    return wind_pungs(f) == 4


def little_four_winds(f) -> bool:
    return wind_pungs(f) == 3 and f.pair in WINDS


def big_three_dragons(f) -> bool:
    return dragon_pungs(f) == 3


def little_three_dragons(f) -> bool:
    return dragon_pungs(f) == 2 and f.pair in DRAGONS


def every_group(f, pred) -> bool:
    """Every set and the pair satisfy ``pred(kinds)`` (standard form only)."""
    return f.standard and all(pred(g) for g in f.groups)


def outside_hand(f) -> bool:        # 全带幺
    return every_group(f, lambda g: any(is_yaojiu(k) for k in g))


def all_fives(f) -> bool:           # 全带五
    return every_group(f, lambda g: any(k < 27 and k % 9 == 4 for k in g))


def even_pungs(f) -> bool:          # 全双刻
    return (f.standard and not f.chows
            and every_group(f, lambda g: g[0] < 27 and (g[0] % 9 + 1) % 2 == 0))


def kong_count(f) -> int:
    return len(f.kongs)


def concealed(f) -> bool:           # 门清: no chi, pon or exposed kong
    return f.melded == 0


def nine_gates(f) -> bool:
    """Concealed ``1112345678999`` of one suit before the win, won on that suit."""
    hand = f.ctx.hand
    if f.ctx.melds or len(hand) != 13 or not f.standard:
        return False
    suit = hand[0] // 9
    if hand[0] >= 27 or any(k // 9 != suit or k >= 27 for k in hand) or f.ctx.win // 9 != suit:
        return False
    counts = [0] * 9
    for k in hand:
        counts[k % 9] += 1
    return tuple(counts) == NINE_GATES


def seven_pairs(f) -> bool:
    return f.form == SEVEN_PAIRS


def shifted_pairs(f) -> bool:       # 连七对: seven consecutive pairs of one suit
    if f.form != SEVEN_PAIRS or not full_flush(f):
        return False
    kinds = sorted(f.kinds)
    return len(kinds) == 7 and kinds[-1] - kinds[0] == 6


def thirteen_orphans(f) -> bool:
    return f.form == THIRTEEN_ORPHANS


def knitted_straight(f) -> bool:    # 组合龙: its form, or all nine knitted tiles in 全不靠
    if f.form == ZU_HE_LONG:
        return True
    return f.form == QUAN_BU_KAO and sum(1 for k in f.kinds if k < 27) == 9


def greater_honors(f) -> bool:
    return f.form == QI_XING_BU_KAO


def lesser_honors(f) -> bool:
    return f.form == QUAN_BU_KAO


def yao_jiu_pungs(f, scored_winds=()) -> int:
    """幺九刻: pungs of terminals, and of winds that no wind fan uses: ``scored_winds``
    (round and seat winds in gb) score their own fan, and three or four wind pungs
    score 三风刻 / 四喜, which absorb them (per set)."""
    winds = wind_pungs(f)
    return sum(1 for k in f.pungs
               if is_terminal(k) or (is_wind(k) and winds < 3 and k not in scored_winds))


def honor_pungs(f) -> int:
    return wind_pungs(f) + dragon_pungs(f)


def pair_ranks(f, ranks) -> bool:
    """The pair is a number tile of one of ``ranks`` (二五八将, 幺九头)."""
    return f.standard and f.pair is not None and f.pair < 27 and f.pair % 9 + 1 in ranks


def first_turn(dealer: bool, tsumo: bool):
    """天和/地和/人和-style wins: the first turn, by or against the dealer. Each table
    maps the three combinations to its own names (RULES.md 2, naming warning)."""
    return lambda f: f.ctx.first_turn and f.ctx.dealer == dealer and f.tsumo == tsumo


def declared_ready(f) -> bool:
    return f.ctx.ting in ("ready", "tian_ting")


def flowers_held(f, wanted) -> bool:
    return set(wanted) <= set(f.ctx.flowers)


def honor_seven_pairs(f, honors) -> bool:
    return seven_pairs(f) and set(honors) <= f.kinds


# ----- the wait (3.8.6) ----------------------------------------------------------------
WAIT_FANS = ("bian_zhang", "kan_zhang", "dan_diao_jiang")


def wait_fan(f) -> str | None:
    """边张 / 坎张 / 单钓将 of a hand with exactly one winning kind: the role the
    winning tile can play in a concealed set of this reading. When it can play more
    than one, the edge counts before the closed wait before the single wait (the
    competition calculators' order, and seed 004's example ``1233m`` on 3m = edge)."""
    win, roles = f.ctx.win, set()
    for block in f.decomp.blocks:
        if block.meld is not None:
            continue
        if block.shape == CHOW and win in block.tiles:
            roles.add("kan_zhang" if block.tiles[1] == win else "bian_zhang")
        elif block.shape == PAIR and block.tiles[0] == win:
            roles.add("dan_diao_jiang")
    if not roles or not f.situation.unique_wait:
        return None
    return next(key for key in WAIT_FANS if key in roles)


# ----- counting-function factories used by several tables ------------------------------
def combo(key: str):
    """A Guobiao set-combination fan of the reading (``combos`` names, RULES.md 8.4)."""
    return lambda f: f.combos.get(key, 0)


def wait_is(key: str):
    return lambda f: int(wait_fan(f) == key)


def kongs(melded: int | None = None, concealed: int | None = None):
    """Kong fans by how many melded / concealed kongs (None: any). They nest: 三杠 and
    四杠 exclude the two-kong fans, which exclude the one-kong fans (3.15.2)."""
    return lambda f: ((melded is None or f.melded_kongs == melded)
                      and (concealed is None or f.concealed_kongs == concealed))
