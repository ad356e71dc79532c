"""Fan tables: each fan is a key, its names, a value, a counting predicate and the fans
it excludes. A table is an ordered tuple of fans; the pipeline evaluates it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from .features import bits
from .situation import SITUATION_MASK


MEMO_LIMIT = 50_000  # distinct feature sets remembered per table


@dataclass(frozen=True, slots=True, eq=False)  # one object per fan: hashed by identity
class Fan:
    """One scoring pattern.

    ``count(facts)`` says how many times the fan scores (0 = not at all; per-set fans
    return the number of qualifying sets). ``excludes`` names fans it makes uncounted
    (不计), transitively through the excluded fans that hold (RULES.md 3.15.2). ``excludes_one`` removes a single instance
    of a per-set fan (e.g. 九莲宝灯 absorbs one 幺九刻). ``replaces`` names fans it
    stands in for without passing its own exclusions on: 不求人 *is* 门前清 + 自摸, so a
    fan that absorbs 不求人 (七对, 四暗刻, …) still scores the self-draw, as in every
    competition calculator.
    """

    key: str
    zh: str
    en: str
    value: int
    count: Callable[[object], int]
    excludes: tuple[str, ...] = ()
    excludes_one: tuple[str, ...] = ()
    replaces: tuple[str, ...] = ()
    flower: bool = False      # never counts toward a minimum (花牌)
    yakuman: bool = False     # classic/stage 役满: worth the cap, never combined
    needs: frozenset = frozenset()  # features without which it cannot hold (from count)
    mask: int = 0                   # ``needs`` as feature bits
    # How the pipeline counts it: None calls ``count``; "exact" means the needs are the
    # whole condition (count 1); any other string is a set-combination fan's key.
    how: str | None = None

    def __post_init__(self):
        needs = getattr(self.count, "needs", frozenset())
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

    def __post_init__(self):
        object.__setattr__(self, "by_key", {f.key: f for f in self.fans})
        object.__setattr__(self, "values", {f.key: f.value for f in self.fans})
        object.__setattr__(self, "_candidates", {})
        object.__setattr__(self, "_by_shape", {})
        # Exclusions as bit masks over the table's fans (the pipeline's hot loop).
        bit_of = {f: 1 << i for i, f in enumerate(self.fans)}
        by_key = {f.key: 1 << i for i, f in enumerate(self.fans)}

        def mask(keys) -> int:
            out = 0
            for key in keys:
                out |= by_key.get(key, 0)
            return out
        object.__setattr__(self, "bit_of", bit_of)
        object.__setattr__(self, "excludes_mask", {f: mask(f.excludes) for f in self.fans})
        object.__setattr__(self, "excludes_by_bit",
                           {bit_of[f]: mask(f.excludes) for f in self.fans})
        object.__setattr__(self, "replaces_mask", {f: mask(f.replaces) for f in self.fans})

    def candidates(self, features) -> tuple[Fan, ...]:
        """The fans whose needs ``features`` meet (feature bits, or a set of feature
        names), in table order."""
        if not isinstance(features, int):
            features = bits(features)
        return tuple(fan for fan, _, _ in self.plan(features)[0])

    def plan(self, features: int) -> tuple[tuple, bool]:
        """How to count a reading with these feature bits: ``(steps, yakuman)``, the
        steps ``(fan, how, count)`` of the candidate fans in table order and whether any
        of them is a yakuman. Memoised: hands share few distinct feature sets."""
        found = self._candidates.get(features)
        if found is None:
            if len(self._candidates) >= MEMO_LIMIT:  # a long-lived server stays bounded
                self._candidates.clear()
            # Two levels: the fans whose needs the reading's shape meets (few shapes
            # recur), then those the situation meets too.
            fans = [f for f in self._shape_candidates(features & ~SITUATION_MASK)
                    if f.mask & features == f.mask]
            found = (tuple((f, f.how, f.count) for f in fans), any(f.yakuman for f in fans))
            self._candidates[features] = found
        return found

    def _shape_candidates(self, shape: int) -> tuple[Fan, ...]:
        found = self._by_shape.get(shape)
        if found is None:
            if len(self._by_shape) >= MEMO_LIMIT:
                self._by_shape.clear()
            # The fallback is the pipeline's to add, never a condition to evaluate.
            found = self._by_shape[shape] = tuple(
                f for f in self.fans if f.mask & ~SITUATION_MASK & ~shape == 0
                and f.key != self.fallback)
        return found

    def keys(self) -> set[str]:
        return set(self.by_key)

    def value_of(self, overrides: Mapping[str, int]):
        """key -> fan value, with an operator's overrides (Ruleset.fan_values) applied."""
        return {**self.values, **overrides}.__getitem__ if overrides else self.values.__getitem__

