"""Set-combination fans of the Guobiao family (一般高, 喜相逢, 连六, 老少副 and their
larger relatives; 双同刻, 三同刻, 三节高, 风刻/箭刻 groups) under the five counting
principles of RULES.md 8.4.

The principles reduce to a fixed procedure, the one the competition calculators use:
a fan over all four sets is counted alone; otherwise a fan over three sets is
counted and the fourth set may combine once with one of them (套算一次), preferring
the higher pair fan; otherwise pairs combine, at most ``sets - 1`` times over the sets
that relate to anything, dropping repeats of the same pair fan first (不得相同).
Chows are given by their lowest kind, pungs by their kind, both sorted.
"""

from __future__ import annotations

import sys
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations, combinations_with_replacement

from .. import scoring_tables
from ..tiles import EAST, NORTH, WHITE
from .features import bit, bits

# Pair fans in the order the principles prefer them when only one may count.
CHOW_PAIR_ORDER = ("yi_ban_gao", "xi_xiang_feng", "lian_liu", "lao_shao_fu")
# Fan key -> count, and the keys as feature bits.
Combos = tuple[dict[str, int], int]


def _suit(k: int) -> int:
    return k // 9


def _rank(k: int) -> int:
    return k % 9


def _stepped(values: Iterable[int], step: int) -> bool:
    v = sorted(values)
    return all(b - a == step for a, b in zip(v, v[1:]))


# ----- chows ---------------------------------------------------------------------------
def four_chows_fan(c: Sequence[int]) -> str | None:
    if len({_suit(k) for k in c}) != 1:
        return None
    if _stepped(c, 1) or _stepped(c, 2):
        return "yi_se_si_bu_gao"
    if len(set(c)) == 1:
        return "yi_se_si_tong_shun"
    return None


def three_chows_fan(c: Sequence[int]) -> str | None:
    suits = {_suit(k) for k in c}
    ranks = [_rank(k) for k in c]
    if len(suits) == 3:
        if _stepped(ranks, 1):
            return "san_se_san_bu_gao"
        if len(set(ranks)) == 1:
            return "san_se_san_tong_shun"
        if sorted(ranks) == [0, 3, 6]:
            return "hua_long"
        return None
    if len(suits) != 1:
        return None
    if sorted(ranks) == [0, 3, 6]:
        return "qing_long"
    if _stepped(ranks, 2) or _stepped(ranks, 1):
        return "yi_se_san_bu_gao"
    if len(set(ranks)) == 1:
        return "yi_se_san_tong_shun"
    return None


def two_chows_fan(a: int, b: int) -> str | None:
    if _suit(a) != _suit(b):
        return "xi_xiang_feng" if _rank(a) == _rank(b) else None
    if abs(a - b) == 3:
        return "lian_liu"
    if {_rank(a), _rank(b)} == {0, 6}:
        return "lao_shao_fu"
    if a == b:
        return "yi_ban_gao"
    return None


def _extra_chow_fan(used: Iterable[int], free: int) -> str | None:
    """套算一次: the unused chow combines once with one used chow, the best pair fan."""
    found = {two_chows_fan(u, free) for u in used}
    return next((key for key in CHOW_PAIR_ORDER if key in found), None)


def _tally(keys: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for key in keys:
        out[key] = out.get(key, 0) + 1
    return out


def _limit_pair_fans(found: list[str], limit: int) -> dict[str, int]:
    """不得相同: when more pair fans relate than the sets allow, drop repeats first,
    from the lowest-preferred fan up, then whole fans the same way."""
    table = _tally(found)
    total = len(found)
    for keep in (1, 0):
        for key in reversed(CHOW_PAIR_ORDER):
            while total > limit and table.get(key, 0) > keep:
                table[key] -= 1
                total -= 1
    return {key: n for key, n in table.items() if n > 0}


def chow_fans(c: tuple[int, ...]) -> dict[str, int]:
    if len(c) < 2:
        return {}
    if len(c) == 4 and (fan := four_chows_fan(c)):
        return {fan: 1}
    if len(c) >= 3:
        for idx in combinations(range(len(c)), 3):
            trio = [c[i] for i in idx]
            if fan := three_chows_fan(trio):
                result = {fan: 1}
                free = [c[i] for i in range(len(c)) if i not in idx]
                if free and (extra := _extra_chow_fan(trio, free[0])):
                    result[extra] = result.get(extra, 0) + 1
                return result
    pairs = [(i, j, two_chows_fan(c[i], c[j])) for i, j in combinations(range(len(c)), 2)]
    found = [fan for _, _, fan in pairs if fan]
    related = {x for i, j, fan in pairs if fan for x in (i, j)}
    lonely = len(c) - len(related)
    limit = len(c) - 1 - lonely if len(c) == 4 else len(c) - 1
    return _limit_pair_fans(found, limit) if limit > 0 else {}


# ----- pungs ---------------------------------------------------------------------------
def four_pungs_fan(p: Sequence[int]) -> str | None:
    if p[0] < 27 and _suit(p[0]) == _suit(p[3]) and _stepped(p, 1):
        return "yi_se_si_jie_gao"
    if tuple(p) == (EAST, EAST + 1, EAST + 2, NORTH):
        return "da_si_xi"
    return None


def three_pungs_fan(p: Sequence[int]) -> str | None:
    if all(k < 27 for k in p):
        suits = {_suit(k) for k in p}
        ranks = [_rank(k) for k in p]
        if len(suits) == 3:
            if _stepped(ranks, 1):
                return "san_se_san_jie_gao"
            if len(set(ranks)) == 1:
                return "san_tong_ke"
        elif len(suits) == 1 and _stepped(p, 1):
            return "yi_se_san_jie_gao"
        return None
    if all(EAST <= k <= NORTH for k in p):
        return "san_feng_ke"
    if all(k >= WHITE for k in p) and all(k < 34 for k in p):
        return "da_san_yuan"
    return None


def two_pungs_fan(a: int, b: int) -> str | None:
    if a < 27 and b < 27:
        return "shuang_tong_ke" if _rank(a) == _rank(b) else None
    if a >= WHITE and b >= WHITE:
        return "shuang_jian_ke"
    return None


def pung_fans(p: tuple[int, ...]) -> dict[str, int]:
    if len(p) < 2:
        return {}
    if len(p) == 4 and (fan := four_pungs_fan(p)):
        return {fan: 1}
    if len(p) >= 3:
        for idx in combinations(range(len(p)), 3):
            trio = [p[i] for i in idx]
            if fan := three_pungs_fan(trio):
                result = {fan: 1}
                for free in (p[i] for i in range(len(p)) if i not in idx):
                    extra = next((f for f in (two_pungs_fan(u, free) for u in trio) if f), None)
                    if extra:
                        result[extra] = result.get(extra, 0) + 1
                return result
    return _tally(fan for a, b in combinations(p, 2) if (fan := two_pungs_fan(a, b)))


# ----- both, with the pair-dependent upgrades ------------------------------------------
def terminal_chows_fan(chows: Sequence[int], pair: int | None) -> str | None:
    """一色双龙会 / 三色双龙会: 123 and 789 twice with a pair of 5s."""
    if len(chows) != 4 or pair is None or pair >= 27 or _rank(pair) != 4:
        return None
    if any(_rank(k) not in (0, 6) for k in chows):
        return None
    by_suit = Counter((_suit(k), _rank(k)) for k in chows)
    if all(_suit(k) == _suit(pair) for k in chows) and by_suit[(_suit(pair), 0)] == 2:
        return "yi_se_shuang_long_hui"
    others = {s for s in range(3) if s != _suit(pair)}
    if all(by_suit[(s, r)] == 1 for s in others for r in (0, 6)):
        return "san_se_shuang_long_hui"
    return None


def set_combination_fans(
    chows: tuple[int, ...], pungs: tuple[int, ...], pair: int | None
) -> Combos:
    """Every set-combination fan of one standard reading, principles applied, as fan
    key -> count, and the keys as feature bits. Chow and pung fans never share a key,
    so each side is memoised on its own sets, and computed once per pattern of sets
    (``_chow_pattern``, ``_pung_pattern``: what the fans look at); the pair only
    upgrades a few of them. The answer is shared, never to be changed."""
    if len(chows) == 4 and pair is not None and pair < 27 and pair % 9 == 4:
        fan = terminal_chows_fan(chows, pair)
        if fan:
            return _single(fan)
    prebuild()
    by_chows = _CHOWS.get(chows) or _kept(_CHOWS, _CHOW_PATTERNS, chows, _chow_pattern, chow_fans)
    by_pungs = _PUNGS.get(pungs) or _kept(_PUNGS, _PUNG_PATTERNS, pungs, _pung_pattern, pung_fans)
    if not by_pungs[1]:
        return by_chows
    if pair is not None and pair >= WHITE and "shuang_jian_ke" in by_pungs[0]:
        fans = {**by_chows[0], **by_pungs[0], "xiao_san_yuan": 1}
        del fans["shuang_jian_ke"]
    elif pair is not None and EAST <= pair <= NORTH and "san_feng_ke" in by_pungs[0]:
        fans = {**by_chows[0], **by_pungs[0], "xiao_si_xi": 1}
        del fans["san_feng_ke"]
    elif not by_chows[1]:
        return by_pungs
    else:
        return {**by_chows[0], **by_pungs[0]}, by_chows[1] | by_pungs[1]
    return fans, bits(fans)


def prebuild() -> None:
    """Every set of up to four chows and of up to four pungs (65,000 of them), once: a
    hand never meets sets not seen before (wenzhou's five sets aside). Read from the
    shipped tables (``scoring_tables``, about 15 ms), built where they are missing
    (about 0.3 s)."""
    if _PUNGS:
        return
    shipped = scoring_tables.load("combos")
    if shipped is None:
        for chows in chow_sets():
            _kept(_CHOWS, _CHOW_PATTERNS, chows, _chow_pattern, chow_fans)
        for pungs in pung_sets():
            _kept(_PUNGS, _PUNG_PATTERNS, pungs, _pung_pattern, pung_fans)
        return
    fan_dicts, chow_numbers, pung_numbers = shipped
    found = [(fans, bits(fans)) for fans in fan_dicts]  # bits are given out at run time
    for memo, sets, data in (
        (_CHOWS, chow_sets(), chow_numbers),
        (_PUNGS, pung_sets(), pung_numbers),
    ):
        numbers = array("H", data)
        if sys.byteorder != "little":
            numbers.byteswap()
        memo.update(zip(sets, map(found.__getitem__, numbers)))


def chow_sets() -> Iterator[tuple[int, ...]]:
    """Every set of up to four chows (by their lowest kinds, sorted), in size order."""
    starts = [9 * suit + rank for suit in range(3) for rank in range(7)]
    for size in range(5):
        yield from combinations_with_replacement(starts, size)


def pung_sets() -> Iterator[tuple[int, ...]]:
    """Every set of up to four pungs (their kinds, sorted), in size order."""
    for size in range(5):
        yield from combinations(range(34), size)


def _kept(
    memo: dict[tuple[int, ...], Combos],
    patterns: dict[tuple[int, ...], Combos],
    sets: tuple[int, ...],
    pattern_of: Callable[[tuple[int, ...]], tuple[int, ...]],
    fans_of: Callable[[tuple[int, ...]], dict[str, int]],
) -> Combos:
    """Sets not met before: their fans by their pattern (computed once per pattern),
    then kept for the sets themselves."""
    pattern = pattern_of(sets) if len(sets) > 1 else ()
    found = patterns.get(pattern)
    if found is None:
        found = _memo(patterns, pattern, fans_of(pattern))
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[sets] = found
    return found


def _chow_pattern(chows: tuple[int, ...]) -> tuple[int, ...]:
    """The chows as their fans see them, for the memo: chows combine by suit (same or
    not, never which) and rank, so their suits are renumbered from the first, keeping
    the order."""
    suits: dict[int, int] = {}
    return tuple([9 * suits.setdefault(k // 9, len(suits)) + k % 9 for k in chows])


def _pung_pattern(pungs: tuple[int, ...]) -> tuple[int, ...]:
    """The pungs as their fans see them, for the memo: number pungs combine by suit
    (same or not) and rank (same or next), so their suits are renumbered from the
    first and their ranks shifted down to start at 1 (a lone one is just "a number
    pung"); honor pungs combine by how many winds and dragons there are (三风刻, 大四喜,
    双箭刻, 大三元), so the winds are read as the first winds and the dragons as the
    first dragons. Far fewer patterns than pungs, the same fans, in the same order."""
    numbers = [k for k in pungs if k < EAST]
    honors = len(pungs) - len(numbers)
    if len(numbers) > 1:
        low = min(k % 9 for k in numbers)
        suits: dict[int, int] = {}
        numbers = [9 * suits.setdefault(k // 9, len(suits)) + k % 9 - low for k in numbers]
    elif numbers:
        numbers = [0]
    if not honors:
        return tuple(numbers)
    winds = sum(1 for k in pungs if EAST <= k <= NORTH)
    return (*numbers, *range(EAST, EAST + winds), *range(WHITE, WHITE + honors - winds))


MEMO_LIMIT = 100_000
_CHOWS: dict[tuple[int, ...], Combos] = {}
_PUNGS: dict[tuple[int, ...], Combos] = {}
_CHOW_PATTERNS: dict[tuple[int, ...], Combos] = {}
_PUNG_PATTERNS: dict[tuple[int, ...], Combos] = {}


def _memo(
    memo: dict[tuple[int, ...], Combos], sets: tuple[int, ...], fans: dict[str, int]
) -> Combos:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    found = memo[sets] = (fans, bits(fans))
    return found


def _single(fan: str) -> Combos:
    found = _SINGLE.get(fan)
    if found is None:
        found = _SINGLE[fan] = ({fan: 1}, bit(fan))
    return found


_SINGLE: dict[str, Combos] = {}
