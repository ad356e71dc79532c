"""Fan conditions shared by several tables: one concept, one function. Each takes the
``Facts`` of one reading and returns a bool or a count.

``@needs(...)`` names the features (see ``facts``) without which a condition cannot
hold; the pipeline skips a fan whose needs the reading lacks, so most of a table is
never evaluated for a given hand. Needs are only a shortcut: every condition is
complete on its own, so conditions can be combined and called directly. ``@exact(...)``
says the features are the whole condition (清一色 is "one_suit" + "no_honor"), so the
pipeline counts the fan without calling it. Factories (``when``, ``combo``, ``kongs``,
…) build the conditions tables parametrise, with their needs attached.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Protocol, TypeVar

from ..shapes import (
    QI_XING_BU_KAO,
    QUAN_BU_KAO,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    ZU_HE_LONG,
    Block,
    WinContext,
)
from ..tiles import DRAGONS, GREEN, TERMINALS, WINDS, YAOJIU
from .features import bit, bits


class _Waits(Protocol):
    @property
    def unique_wait(self) -> bool: ...


class ReadingFacts(Protocol):
    """What the conditions read of one reading's ``facts.Facts``. A protocol because
    facts reads the tile classes here, and may not be imported back (no import cycles
    between the scorer's modules: pyproject.toml, importlinter)."""

    @property
    def ctx(self) -> WinContext: ...
    @property
    def situation(self) -> _Waits: ...
    @property
    def form(self) -> str: ...
    @property
    def standard(self) -> bool: ...
    @property
    def bits(self) -> int: ...
    @property
    def suits(self) -> frozenset[int]: ...
    @property
    def kinds(self) -> frozenset[int]: ...
    @property
    def ranks(self) -> frozenset[int]: ...
    @property
    def has_honors(self) -> bool: ...
    @property
    def hogs(self) -> int: ...
    @property
    def sets(self) -> tuple[Block, ...]: ...
    @property
    def chows(self) -> tuple[int, ...]: ...
    @property
    def pungs(self) -> tuple[int, ...]: ...
    @property
    def kongs(self) -> tuple[Block, ...]: ...
    @property
    def melded_kongs(self) -> int: ...
    @property
    def concealed_kongs(self) -> int: ...
    @property
    def concealed_pungs(self) -> int: ...
    @property
    def pair(self) -> int | None: ...
    @property
    def groups(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def combos(self) -> dict[str, int]: ...
    @property
    def roles(self) -> int: ...
    @property
    def wait_fan(self) -> str | None: ...


# A condition: how many times it holds in a reading; a Check holds or not (0 or 1).
Count = Callable[[ReadingFacts], int]
Check = Callable[[ReadingFacts], bool]
_C = TypeVar("_C", bound=Callable[..., object])

GREEN_KINDS = frozenset({19, 20, 21, 23, 25, GREEN})  # 2s 3s 4s 6s 8s 6z
REVERSIBLE_KINDS = frozenset(
    {
        9,
        10,
        11,
        12,
        13,
        16,
        17,  # 1p-5p 8p 9p
        19,
        21,
        22,
        23,
        25,
        26,
        31,
    }
)  # 2s 4s-6s 8s 9s, 5z
TERMINAL_KINDS = frozenset(TERMINALS)
YAOJIU_KINDS = frozenset(YAOJIU)
WIND_KINDS = frozenset(WINDS)
DRAGON_KINDS = frozenset(DRAGONS)
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)
RANK_RANGES: dict[tuple[int, int], int] = {}  # (low, high) of ``ranks`` -> its feature bit


def needs(*features: str) -> Callable[[_C], _C]:
    def mark(condition: _C) -> _C:
        # vars(): attributes of a function, which its type cannot declare
        vars(condition).update(needs=frozenset(features))
        return condition

    return mark


def exact(*features: str) -> Callable[[_C], _C]:
    """``needs`` where the features are the whole condition: the pipeline counts the
    fan (once) without calling it. The function stays complete, for direct calls."""

    def mark(condition: _C) -> _C:
        vars(condition).update(needs=frozenset(features), exact=True)
        return condition

    return mark


# ----- tile classes over the whole hand -------------------------------------------------
@exact("one_suit", "no_honor")
def full_flush(f: ReadingFacts) -> bool:  # 清一色
    return len(f.suits) == 1 and not f.has_honors


@exact("one_suit", "honor")
def half_flush(f: ReadingFacts) -> bool:  # 混一色
    return len(f.suits) == 1 and f.has_honors


@exact("honor", "no_suit")
def all_honors(f: ReadingFacts) -> bool:  # 字一色 (tiles only; a table may add a form)
    return not f.suits and f.has_honors


@exact("no_honor", "terminals")
def all_terminals(f: ReadingFacts) -> bool:  # 清幺九 / 清老头
    return f.kinds <= TERMINAL_KINDS


@exact("honor", "suited", "yaojiu")
def terminals_and_honors(f: ReadingFacts) -> bool:  # 混幺九 / 混老头: both present (3.15.7)
    return f.kinds <= YAOJIU_KINDS and bool(f.suits) and f.has_honors


@exact("no_honor", "simple")
def all_simples(f: ReadingFacts) -> bool:  # 断幺 / 断幺九
    return not f.kinds & YAOJIU_KINDS


@exact("no_honor")
def no_honors(f: ReadingFacts) -> bool:
    return not f.has_honors


@exact("green")
def all_green(f: ReadingFacts) -> bool:
    return f.kinds <= GREEN_KINDS


@exact("reversible")
def reversible(f: ReadingFacts) -> bool:
    return f.kinds <= REVERSIBLE_KINDS


@exact("two_suits")
def one_voided_suit(f: ReadingFacts) -> bool:  # 缺一门
    return len(f.suits) == 2


@exact("honor", "three_suits", "wind", "dragon")
def all_types(f: ReadingFacts) -> bool:  # 五门齐
    return len(f.suits) == 3 and bool(f.kinds & WIND_KINDS) and bool(f.kinds & DRAGON_KINDS)


def ranks(low: int, high: int, standard_only: bool = False) -> Check:
    """Only number tiles, all ranked low..high (全大, 大于五, …): the feature
    "ranks_LOW_HIGH", which ``Facts`` sets for every range asked for here."""
    RANK_RANGES.setdefault((low, high), bit(f"ranks_{low}_{high}"))

    @exact("no_honor", f"ranks_{low}_{high}", *(("standard",) if standard_only else ()))
    def within(f: ReadingFacts) -> bool:
        return (
            (f.standard or not standard_only)
            and not f.has_honors
            and all(low <= r <= high for r in f.ranks)
        )

    return within


@needs("hog")
def tile_hogs(f: ReadingFacts) -> int:  # 四归一: four copies not used as a kong
    return f.hogs


# ----- sets and the pair ---------------------------------------------------------------
@exact("pung", "standard", "no_chow")
def all_pungs(f: ReadingFacts) -> bool:  # 碰碰和
    return f.standard and not f.chows


@needs("chow", "pair", "no_pung")
def all_chows_number_pair(f: ReadingFacts) -> bool:  # 平和 shape (the wait is up to the table)
    return f.standard and len(f.chows) == len(f.sets) and f.pair is not None and f.pair < 27


def wind_pungs(f: ReadingFacts) -> int:
    return sum(1 for k in f.pungs if k in WIND_KINDS)


@needs("dragon_pung")
def dragon_pungs(f: ReadingFacts) -> int:
    return sum(1 for k in f.pungs if k in DRAGON_KINDS)


@exact("wind_pung", "wind_pungs_4")
def big_four_winds(f: ReadingFacts) -> bool:
    return wind_pungs(f) == 4


@needs("wind_pung", "pair")
def little_four_winds(f: ReadingFacts) -> bool:
    return wind_pungs(f) == 3 and f.pair in WINDS


@exact("dragon_pung", "dragon_pungs_3")
def big_three_dragons(f: ReadingFacts) -> bool:
    return dragon_pungs(f) == 3


@needs("dragon_pung", "pair")
def little_three_dragons(f: ReadingFacts) -> bool:
    return dragon_pungs(f) == 2 and f.pair in DRAGONS


@needs("wind_pung", "pair")
def little_three_winds(f: ReadingFacts) -> bool:  # 小三风
    return wind_pungs(f) == 2 and f.pair in WINDS


@needs("pung", "honor")
def four_honor_pungs(f: ReadingFacts) -> bool:  # 四字刻
    return sum(1 for k in f.pungs if k >= 27) == 4


def every_group(f: ReadingFacts, pred: Callable[[tuple[int, ...]], bool]) -> bool:
    """Every set and the pair satisfy ``pred(kinds)`` (standard form only)."""
    return all(pred(g) for g in f.groups)


@exact("standard", "pung", "no_honor", "no_chow", "even")
def even_pungs(f: ReadingFacts) -> bool:  # 全双刻
    return f.standard and not f.chows and every_group(f, lambda g: g[0] < 27 and g[0] % 9 % 2 == 1)


def kong_total(n: int) -> Check:
    @exact("kong", f"kongs_{n}")
    def total(f: ReadingFacts) -> bool:
        return len(f.kongs) == n

    return total


def kongs(melded: int | None = None, concealed: int | None = None) -> Check:
    """Kong fans by how many melded / concealed kongs (None: any). They nest: 三杠 and
    四杠 exclude the two-kong fans, which exclude the one-kong fans (3.15.2)."""

    @exact(
        "kong",
        *([f"melded_kongs_{melded}"] if melded is not None else []),
        *([f"concealed_kongs_{concealed}"] if concealed is not None else []),
    )
    def count(f: ReadingFacts) -> bool:
        return (melded is None or f.melded_kongs == melded) and (
            concealed is None or f.concealed_kongs == concealed
        )

    return count


def concealed_pungs(n: int) -> Check:
    """暗刻 fans from two up (三暗刻, 双暗刻, 四暗刻)."""

    @exact("pung", "concealed_pungs", f"concealed_pungs_{n}")
    def count(f: ReadingFacts) -> bool:
        return f.concealed_pungs == n

    return count


@needs("concealed", "one_suit", "no_honor", "standard")
def nine_gates(f: ReadingFacts) -> bool:
    """Concealed ``1112345678999`` of one suit before the win, won on that suit."""
    hand = f.ctx.hand
    if f.ctx.melds or len(hand) != 13 or not f.standard or not full_flush(f):
        return False
    counts = [0] * 9
    for k in hand:
        counts[k % 9] += 1
    return tuple(counts) == NINE_GATES


@exact(SEVEN_PAIRS)
def seven_pairs(f: ReadingFacts) -> bool:
    return f.form == SEVEN_PAIRS


@needs(SEVEN_PAIRS, "one_suit", "no_honor")
def shifted_pairs(f: ReadingFacts) -> bool:  # 连七对: seven consecutive pairs of one suit
    if f.form != SEVEN_PAIRS or not full_flush(f):
        return False
    kinds = sorted(f.kinds)
    return len(kinds) == 7 and kinds[-1] - kinds[0] == 6


def honor_seven_pairs(honors: Iterable[int]) -> Check:
    """七对 holding a pair of each of ``honors`` (大七星, 三元七对, 四喜七对)."""

    @needs(SEVEN_PAIRS, "honor")
    def holds(f: ReadingFacts) -> bool:
        return f.form == SEVEN_PAIRS and set(honors) <= f.kinds

    return holds


@exact(THIRTEEN_ORPHANS)
def thirteen_orphans(f: ReadingFacts) -> bool:
    return f.form == THIRTEEN_ORPHANS


# 组合龙: its form, or all nine knitted tiles in 全不靠
@needs("knitted")
def knitted_straight(f: ReadingFacts) -> bool:
    if f.form == ZU_HE_LONG:
        return True
    return f.form == QUAN_BU_KAO and sum(1 for k in f.kinds if k < 27) == 9


@exact(QI_XING_BU_KAO)
def greater_honors(f: ReadingFacts) -> bool:
    return f.form == QI_XING_BU_KAO


@exact(QUAN_BU_KAO)
def lesser_honors(f: ReadingFacts) -> bool:
    return f.form == QUAN_BU_KAO


def yao_jiu_pungs(scored_winds: Callable[[ReadingFacts], Collection[int]] | None = None) -> Count:
    """幺九刻: pungs of terminals, and of winds that no wind fan uses: the round and
    seat winds (``scored_winds(f)``, gb only) score their own fan, and three or four wind
    pungs score 三风刻 / 四喜, which absorb them (per set)."""

    @needs("terminal_or_wind_pung")
    def count(f: ReadingFacts) -> int:
        own = scored_winds(f) if scored_winds else ()
        winds = wind_pungs(f)
        return sum(
            1
            for k in f.pungs
            if k in TERMINAL_KINDS or (k in WIND_KINDS and winds < 3 and k not in own)
        )

    return count


def pair_of(*numbers: int) -> Check:
    """The pair is a number tile of one of ``numbers`` (二五八将, 幺九头)."""

    @needs("standard", "pair")
    def pair(f: ReadingFacts) -> bool:
        return f.standard and f.pair is not None and f.pair < 27 and f.pair % 9 + 1 in numbers

    return pair


def pung_of(kind_of: Callable[[WinContext], int]) -> Check:
    """A pung of the wind ``kind_of(ctx)`` names (圈风刻, 门风刻)."""

    @needs("wind_pung")
    def pung(f: ReadingFacts) -> bool:
        return kind_of(f.ctx) in f.pungs

    return pung


# ----- the situation of the win ----------------------------------------------------------
def when(*features: str) -> Check:
    """Holds exactly when the hand has all ``features`` (自摸, 门前清, 海底, 抢杠, …): its
    needs are the whole condition, so the pipeline counts it without a call."""
    mask = bits(features)
    return exact(*features)(lambda f: f.bits & mask == mask)


# 全带幺 / 全带五: every set and the pair holds a terminal or honor / a 5. Facts sets the
# features "outside" / "fives" in its one pass over the blocks (a chow holds a terminal
# when it is 123 or 789, a 5 when it starts on 3, 4 or 5), so these are exact.
outside_hand = when("standard", "outside")  # 全带幺
all_fives = when("standard", "no_honor", "fives")  # 全带五


def first_turn(dealer: bool, tsumo: bool) -> Check:
    """天和/地和/人和-style wins: the first turn, by or against the dealer. Each table
    maps the three combinations to its own names (RULES.md 2, naming warning)."""
    return when("first_turn", "dealer" if dealer else "non_dealer", "tsumo" if tsumo else "discard")


@needs("flower")
def flower_count(f: ReadingFacts) -> int:
    return f.ctx.num_flowers


def flowers_held(wanted: Iterable[int]) -> Check:
    @needs("flower")
    def held(f: ReadingFacts) -> bool:
        return set(wanted) <= set(f.ctx.flowers)

    return held


# ----- the wait (3.8.6) ----------------------------------------------------------------
WAIT_FANS = ("bian_zhang", "kan_zhang", "dan_diao_jiang")


def wait_fan(f: ReadingFacts) -> str | None:
    """边张 / 坎张 / 单钓将 of a hand with exactly one winning kind: the role the
    winning tile can play in a concealed set of this reading (``f.roles``, found in
    Facts' pass over the blocks). When it can play more than one, the edge counts
    before the closed wait before the single wait (the competition calculators' order,
    and seed 004's example ``1233m`` on 3m = edge)."""
    roles = f.roles
    if not roles or not f.situation.unique_wait:
        return None
    return WAIT_FANS[0 if roles & 1 else 1 if roles & 2 else 2]


def wait_is(key: str) -> Count:
    return needs("wait_roles")(lambda f: int(f.wait_fan == key))


# ----- set combinations (RULES.md 8.4, computed in combos) ------------------------------
def combo(key: str) -> Count:
    """A Guobiao set-combination fan of the reading; the combinations found are features
    of the reading, so only those are evaluated."""
    condition = needs(key)(lambda f: f.combos.get(key, 0))
    vars(condition).update(combo=key)  # the pipeline reads the count straight from the combinations
    return condition
