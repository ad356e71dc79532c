"""The scoring pipeline (RULES.md 3.14): decompositions -> fans of each reading ->
exclusions -> the best reading (就高不就低) -> minimum fan and cap."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..shapes import CHOW, KONG, PUNG, SEVEN_PAIRS, Decomposition, WinContext
from .facts import Facts, TileFacts
from .situation import Situation
from .table import MEMO_LIMIT, Fan, FanTable


@dataclass(frozen=True, slots=True)
class FanScore:
    key: str
    zh: str
    en: str
    fan: int  # value of one instance
    count: int = 1

    @property
    def points(self) -> int:
        return self.fan * self.count


@dataclass(frozen=True)
class ScoreResult:
    """A scored hand. ``is_win`` False means "not a winning hand" (a value, not an
    error). ``total`` is what the score CLI reports: the summed fan (gb, quesheng,
    tiao72), the capped basic points (classic, stage), or the multiplier (wenzhou)."""

    is_win: bool
    total: int = 0
    fans: tuple[FanScore, ...] = ()
    decomposition: Decomposition | None = None
    below_minimum: bool = False
    yakuman: tuple[str, ...] = ()
    raw_total: int = 0  # Σ fan before any cap
    soft: bool | None = None  # wenzhou 软牌 / 硬牌
    multiplier: int | None = None
    doubling: int = 1  # quesheng 过胡加倍, already in ``total``

    @property
    def legal(self) -> bool:
        """A win the player may declare: a winning shape that meets the minimum fan."""
        return self.is_win and not self.below_minimum

    @classmethod
    def of(cls, **fields: Any) -> ScoreResult:
        """A result from fields the scorer knows to be right (all of them), without the
        frozen dataclass's ``__init__`` (one per scored hand)."""
        out = object.__new__(cls)
        out.__dict__.update(fields)
        return out


NOT_A_WIN = ScoreResult(is_win=False)
# A table's fan values with the ruleset's overrides: key -> value (FanTable.value_of).
Values = Callable[[str], int]


class Reading:
    """The counted fans of one decomposition (a plain slotted class: one is made per
    reading in the hot loop)."""

    __slots__ = ("decomposition", "fans", "yakuman", "multiplicative")

    def __init__(
        self,
        decomposition: Decomposition,
        fans: tuple[tuple[Fan, int], ...],
        yakuman: bool,
        multiplicative: bool = False,
    ) -> None:
        self.decomposition = decomposition
        self.fans = fans
        self.yakuman = yakuman
        self.multiplicative = multiplicative

    def total(self, values: Values) -> int:
        if self.multiplicative:
            return math.prod(values(fan.key) ** n for fan, n in self.fans)
        total = 0
        for fan, n in self.fans:
            total += values(fan.key) * n
        return total


def count_fans(table: FanTable, facts: Facts) -> Reading:
    """The counted fans of one reading: the candidates (fans whose needs the reading's
    features meet), those that hold, then the exclusions. Sets of fans are bit masks
    over the table (see ``FanTable``)."""
    candidates = table.candidate_mask(facts.bits)
    holding = candidates & table.exact_mask  # their needs are the whole condition
    counts: dict[int, int] = {}  # fan bit -> count, where not 1
    combo_bits = table.combo_bits
    for key, n in facts.combos.items():  # set combinations, read off the reading
        fan = combo_bits.get(key)
        if fan is not None and candidates & fan:
            holding |= fan
            if n != 1:
                counts[fan] = n
    calls = candidates & table.call_mask
    if calls:
        count_of = table.calls
        while calls:
            fan = calls & -calls
            calls ^= fan
            n = count_of[fan](facts)
            if n:
                holding |= fan
                if n is not True and n != 1:
                    counts[fan] = int(n)
    fan_of_bit = table.fan_of_bit
    if (
        holding & table.yakuman_mask
    ):  # yakuman never combine with other fans, flowers included (4.5)
        held = holding & table.yakuman_mask
        return Reading(
            facts.decomp, tuple((fan_of_bit[b], counts.get(b, 1)) for b in _bits(held)), True
        )
    counted, less = table.exclusions(holding)
    if less:  # per-set exclusions: one instance each
        for key in less:
            fan = table.bit_of_key.get(key, 0)
            if counted & fan:
                n = counts.get(fan, 1) - 1
                counts[fan] = n
                if n <= 0:
                    counted ^= fan
    out = [(fan_of_bit[b], counts.get(b, 1)) for b in _bits(counted)]
    if table.fallback_bit and not counted & ~table.flower_mask:
        out.insert(0, (fan_of_bit[table.fallback_bit], 1))
    return Reading(facts.decomp, tuple(out), False, table.multiplicative)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def _preference(
    reading: Reading, values: Values, cap: int | None
) -> tuple[int, int, int, bool, bool]:
    """就高不就低. At the cap, yakuman beat small fans (stage pays them apart, 5.3.5).
    On equal totals prefer the set reading over seven pairs and a reading with
    一色三同顺 / 三同刻 (the competition calculators' tie rule)."""
    total = reading.total(values)
    capped = min(total, cap) if cap else total
    keys = {fan.key for fan, _ in reading.fans}
    yakuman = len(keys) if reading.yakuman else 0
    return (
        capped,
        yakuman,
        total,
        reading.decomposition.form != SEVEN_PAIRS,
        bool(keys & {"yi_se_san_tong_shun", "san_tong_ke"}),
    )


def best_reading(
    table: FanTable,
    ctx: WinContext,
    decomps: Sequence[Decomposition],
    one_winning_kind: Callable[[], bool],
    values: Values,
    options: Mapping[str, Any],
    cap: int | None,
    tiles: TileFacts | None = None,
) -> Reading | None:
    situation = Situation(ctx, one_winning_kind)
    situation.tiles = tiles
    ordered = sorted(decomps, key=_division_order) if len(decomps) > 1 else decomps
    readings = [count_fans(table, Facts(d, ctx, situation, options)) for d in ordered]
    if len(readings) < 2:
        return readings[0] if readings else None
    return max(readings, key=lambda r: _preference(r, values, cap))


def _division_order(decomp: Decomposition) -> tuple[tuple[int, bool], ...]:
    """Equal totals keep the first reading in the calculators' order: concealed sets
    from the lowest tile up, a pung before a chow on the same tile."""
    return tuple(
        sorted(
            (b.tiles[0], b.shape == CHOW)
            for b in decomp.blocks
            if b.meld is None and b.shape in (CHOW, PUNG, KONG)
        )
    )


def fan_scores(reading: Reading, values: Values) -> tuple[FanScore, ...]:
    """The reading's fans as FanScore values: immutable, so one per (fan, value, count)
    is made and kept."""
    out: list[FanScore] = []
    for fan, n in reading.fans:
        value = values(fan.key)
        kept = _SCORES.get((fan, value))
        if kept is None:
            if len(_SCORES) >= MEMO_LIMIT:
                _SCORES.clear()
            kept = _SCORES[fan, value] = {}
        score = kept.get(n)
        if score is None:
            score = kept[n] = FanScore(fan.key, fan.zh, fan.en, value, n)
        out.append(score)
    return tuple(out)


_SCORES: dict[tuple[Fan, int], dict[int, FanScore]] = {}
