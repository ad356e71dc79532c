"""Fan tables: each fan is a key, its names, a value, a counting predicate and the fans
it excludes. A table is an ordered tuple of fans; the pipeline evaluates it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .features import bits

if TYPE_CHECKING:
    from .facts import Facts

# A fan's condition: how many times it holds in the Facts of a reading (a bool: 0 or 1).
Condition = Callable[["Facts"], int]


MEMO_LIMIT = 50_000  # entries a memo keeps (exclusions per held mask, fan scores)


@dataclass(frozen=True, slots=True, eq=False)  # one object per fan: hashed by identity
class Fan:
    """One scoring pattern.

    ``count(facts)`` says how many times the fan scores (0 = not at all; per-set fans return the
    number of qualifying sets). ``excludes`` names fans it makes uncounted (不计), transitively
    through the excluded fans that hold (RULES.md 3.15.2). ``excludes_one`` removes a single
    instance of a per-set fan (e.g. 九莲宝灯 absorbs one 幺九刻). ``replaces`` names fans it stands
    in for without passing its own exclusions on: 不求人 *is* 门前清 + 自摸, so a fan that absorbs
    不求人 (七对, 四暗刻, …) still scores the self-draw, as in every competition calculator.
    """

    key: str
    zh: str
    en: str
    value: int
    count: Condition
    excludes: tuple[str, ...] = ()
    excludes_one: tuple[str, ...] = ()
    replaces: tuple[str, ...] = ()
    flower: bool = False  # never counts toward a minimum (花牌)
    yakuman: bool = False  # classic/stage 役满: worth the cap, never combined
    needs: frozenset[str] = frozenset()  # features without which it cannot hold (from count)
    mask: int = 0  # ``needs`` as feature bits
    # How the pipeline counts it: None calls ``count``; "exact" means the needs are the
    # whole condition (count 1); any other string is a set-combination fan's key.
    how: str | None = None

    def __post_init__(self) -> None:
        needs: frozenset[str] = getattr(self.count, "needs", frozenset())
        object.__setattr__(self, "needs", needs)
        object.__setattr__(self, "mask", bits(sorted(needs)))
        how = "exact" if getattr(self.count, "exact", False) else getattr(self.count, "combo", None)
        object.__setattr__(self, "how", how)


@dataclass(frozen=True)
class FanTable:
    slug: str
    fans: tuple[Fan, ...]
    # Fan that scores when nothing else does (无番和 / 推倒胡); None if the table has none.
    fallback: str | None = None
    # Fans multiply instead of adding (wenzhou: ×2 per 双翻 item, the total is a multiplier).
    multiplicative: bool = False

    if TYPE_CHECKING:  # what __post_init__ derives: declared for mypy, no fields at run time
        by_key: dict[str, Fan] = field(init=False)
        values: dict[str, int] = field(init=False)
        bit_of: dict[Fan, int] = field(init=False)
        bit_of_key: dict[str, int] = field(init=False)
        fan_of_bit: dict[int, Fan] = field(init=False)
        excludes_by_bit: dict[int, int] = field(init=False)
        replaces_by_bit: dict[int, int] = field(init=False)
        excludes_one_by_bit: dict[int, tuple[str, ...]] = field(init=False)
        fallback_bit: int = field(init=False)
        flower_mask: int = field(init=False)
        yakuman_mask: int = field(init=False)
        exact_mask: int = field(init=False)
        combo_bits: dict[str, int] = field(init=False)
        calls: dict[int, Condition] = field(init=False)
        call_mask: int = field(init=False)
        all_fans: int = field(init=False)
        _lacking: tuple[tuple[int, tuple[int, ...]], ...] = field(init=False)
        _exclusions: dict[int, tuple[int, tuple[str, ...]]] = field(init=False)
        _unrelated: int = field(init=False)

    def __post_init__(self) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "by_key", {f.key: f for f in self.fans})
        setattr_(self, "values", {f.key: f.value for f in self.fans})
        # Sets of fans are bit masks over the table: bit i is the i-th fan, so walking a
        # mask from its lowest bit walks the table from the top.
        bit_of = {f: 1 << i for i, f in enumerate(self.fans)}
        # (str | None: the fallback, looked up below, may be None)
        by_key: dict[str | None, int] = {f.key: 1 << i for i, f in enumerate(self.fans)}

        def mask(keys: Iterable[str]) -> int:
            out = 0
            for key in keys:
                out |= by_key.get(key, 0)
            return out

        setattr_(self, "bit_of", bit_of)
        setattr_(self, "bit_of_key", by_key)
        setattr_(self, "fan_of_bit", {b: f for f, b in bit_of.items()})
        setattr_(self, "excludes_by_bit", {bit_of[f]: mask(f.excludes) for f in self.fans})
        setattr_(
            self, "replaces_by_bit", {bit_of[f]: mask(f.replaces) for f in self.fans if f.replaces}
        )
        setattr_(
            self,
            "excludes_one_by_bit",
            {bit_of[f]: f.excludes_one for f in self.fans if f.excludes_one},
        )
        fallback = by_key.get(self.fallback, 0)
        setattr_(self, "fallback_bit", fallback)
        setattr_(self, "flower_mask", mask(f.key for f in self.fans if f.flower))
        setattr_(self, "yakuman_mask", mask(f.key for f in self.fans if f.yakuman))
        # How each candidate is counted: "exact" fans hold whenever they are candidates;
        # set-combination fans are read from the reading's combinations; the rest called.
        setattr_(self, "exact_mask", mask(f.key for f in self.fans if f.how == "exact") & ~fallback)
        setattr_(
            self,
            "combo_bits",
            {f.how: bit_of[f] for f in self.fans if f.how not in (None, "exact")},
        )
        calls = {bit_of[f]: f.count for f in self.fans if f.how is None}
        calls.pop(fallback, None)  # the pipeline's to add, never a condition to evaluate
        setattr_(self, "calls", calls)
        setattr_(self, "call_mask", sum(calls))
        setattr_(self, "all_fans", ((1 << len(self.fans)) - 1) & ~fallback)
        setattr_(self, "_lacking", _lacking_tables(self.fans))
        setattr_(self, "_exclusions", {})
        related = 0  # fans in some exclusion: excluding, excluded, replaced
        for f in self.fans:
            out = mask(f.excludes) | mask(f.replaces) | mask(f.excludes_one)
            if out:
                related |= bit_of[f] | out
        setattr_(self, "_unrelated", self.all_fans & ~related)

    def candidate_mask(self, features: int) -> int:
        """The fans whose needs ``features`` (feature bits) meet, as a mask: each byte of
        the features a reading lacks rules out, by one table lookup, the fans needing
        any of them."""
        lacking = ~features
        out = self.all_fans
        for shift, table in self._lacking:
            out &= table[lacking >> shift & 255]
        return out

    def candidates(self, features: int | Iterable[str]) -> tuple[Fan, ...]:
        """The fans whose needs ``features`` meet (feature bits, or a set of feature
        names), in table order."""
        if not isinstance(features, int):
            features = bits(features)
        return self.fans_of(self.candidate_mask(features))

    def fans_of(self, mask: int) -> tuple[Fan, ...]:
        fan_of_bit = self.fan_of_bit
        out: list[Fan] = []
        while mask:
            low = mask & -mask
            out.append(fan_of_bit[low])
            mask ^= low
        return tuple(out)

    def exclusions(self, holding: int) -> tuple[int, tuple[str, ...]]:
        """Of the fans ``holding``, those counted: walk from the top of the table, a fan
        excluded by one already counted is dropped and its own exclusions do not apply
        (3.14.2, 3.15.2). Returns the counted fans' mask and the per-set exclusions (one
        instance each) they make. Memoised: a pure function of the mask."""
        free = holding & self._unrelated  # counted whatever else holds: not in the key
        holding ^= free
        found = self._exclusions.get(holding)
        if found is None:
            if len(self._exclusions) >= MEMO_LIMIT:
                self._exclusions.clear()
            found = self._exclusions[holding] = self._exclude(holding)
        return (found[0] | free, found[1]) if free else found

    def _exclude(self, holding: int) -> tuple[int, tuple[str, ...]]:
        excluded = counted = 0
        less: list[str] = []
        todo = holding
        while todo:
            low = todo & -todo
            todo ^= low
            if excluded & low:
                continue
            counted |= low
            excluded |= self._excluded_by(low, holding) | self.replaces_by_bit.get(low, 0)
            less.extend(self.excludes_one_by_bit.get(low, ()))
        return counted, tuple(less)

    def _excluded_by(self, fan: int, holding: int) -> int:
        """``fan``'s exclusions, and theirs in turn for those that hold in this reading
        (四杠 -> 双暗杠 -> 双暗刻, but 一色双龙会 does not reach 门前清 through 七对 in a
        reading that is not seven pairs)."""
        out = self.excludes_by_bit[fan]
        todo = out & holding
        done = 0
        while todo:
            low = todo & -todo
            done |= low
            out |= self.excludes_by_bit[low]
            todo = out & holding & ~done
        return out

    def keys(self) -> set[str]:
        return set(self.by_key)

    def value_of(self, overrides: Mapping[str, int]) -> Callable[[str], int]:
        """key -> fan value, with an operator's overrides (Ruleset.fan_values) applied."""
        return {**self.values, **overrides}.__getitem__ if overrides else self.values.__getitem__


def _lacking_tables(fans: Sequence[Fan]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For each byte of feature bits some fan needs: byte value of the features lacking
    -> the mask of the fans that need none of them."""
    widest = max((f.mask.bit_length() for f in fans), default=0)
    out: list[tuple[int, tuple[int, ...]]] = []
    for shift in range(0, widest, 8):
        needing = [
            (1 << i, f.mask >> shift & 255) for i, f in enumerate(fans) if f.mask >> shift & 255
        ]
        if not needing:
            continue
        every = (1 << len(fans)) - 1
        table: list[int] = []
        for lacking in range(256):
            ruled_out = 0
            for fan, needs in needing:
                if needs & lacking:
                    ruled_out |= fan
            table.append(every & ~ruled_out)
        out.append((shift, tuple(table)))
    return tuple(out)
