"""Facts about one reading of a winning hand, computed once and read by every fan
predicate (so predicates stay one-liners and nothing is recomputed per fan).

``features`` is the set of coarse facts that fans declare as needs (``predicates.needs``):
the reading's shape ("standard" or the form name, "knitted", "chow", "pung", "kong",
"pair", "concealed_pungs" (two or more), "honor"/"no_honor", the rank span of an
honorless hand ("upper", "middle", "lower", "simple"), "one_suit"/"two_suits", "hog",
and the set-combination fans it holds) and the win's situation
(``Situation.features``).
A fan whose needs are not all present is not evaluated at all."""

from __future__ import annotations

from ..shapes import (CHOW, KONG, PAIR, PUNG, QUAN_BU_KAO, STANDARD, ZU_HE_LONG, Decomposition,
                      WinContext)
from .combos import set_combination_fans
from .predicates import wait_fan

SET_SHAPES = (CHOW, PUNG, KONG)
KNITTED_FORMS = (ZU_HE_LONG, QUAN_BU_KAO)


class Facts:
    """One decomposition in context."""

    def __init__(self, decomp: Decomposition, ctx: WinContext, situation, options=None):
        self.decomp = decomp
        self.ctx = ctx
        self.form = decomp.form
        self.standard = decomp.form == STANDARD
        self.situation = situation
        self.options = options or {}
        self.tsumo = ctx.tsumo
        self.melded = situation.melded
        # Sets are the reading's blocks (melds included); kongs count as pungs.
        self.sets = tuple(b for b in decomp.blocks if b.shape in SET_SHAPES)
        self.chows = tuple(sorted(b.tiles[0] for b in self.sets if b.shape == CHOW))
        self.pungs = tuple(sorted(b.tiles[0] for b in self.sets if b.shape != CHOW))
        self.kongs = tuple(b for b in self.sets if b.shape == KONG)
        self.melded_kongs = sum(1 for b in self.kongs if b.meld == "kan")
        self.concealed_kongs = len(self.kongs) - self.melded_kongs
        self.concealed_pungs = sum(1 for b in self.sets if b.shape != CHOW and b.concealed)
        # The pair of a standard hand, or of 组合龙 + set + pair; seven pairs has no 将.
        pairs = [b.tiles[0] for b in decomp.blocks if b.shape == PAIR]
        self.pair = pairs[0] if decomp.form in (STANDARD, ZU_HE_LONG) and pairs else None
        self.counts = _all_counts(decomp)
        self.kinds = frozenset(k for k, n in enumerate(self.counts) if n)
        self.suits = frozenset(k // 9 for k in self.kinds if k < 27)
        self.has_honors = any(k >= 27 for k in self.kinds)
        self._combos = None
        self.features = situation.features | self._shape_features()
        self._wait_fan = False

    def _shape_features(self) -> frozenset[str]:
        out = {self.form, "honor" if self.has_honors else "no_honor"}
        if not self.has_honors:
            out.update(_rank_span(self.kinds))
        if self.standard:
            out.add("standard")
        if self.chows:
            out.add("chow")
        if self.pungs:
            out.add("pung")
        if self.kongs:
            out.add("kong")
        if self.pair is not None:
            out.add("pair")
        if len(self.suits) == 1:
            out.add("one_suit")
        elif len(self.suits) == 2:
            out.add("two_suits")
        if self.form in KNITTED_FORMS:
            out.add("knitted")
        if self.concealed_pungs >= 2:
            out.add("concealed_pungs")
        if 4 in self.counts:
            out.add("hog")
        if self.standard and (self.chows or self.pungs):
            out.update(self.combos)
        return frozenset(out)

    @property
    def ranks(self) -> frozenset[int]:
        """Ranks 1-9 of the number tiles present."""
        return frozenset(k % 9 + 1 for k in self.kinds if k < 27)

    @property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """The kinds of every set and of the pair (for 全带幺 / 全带五-style fans)."""
        out = [b.tiles[:3] if b.shape == CHOW else b.tiles[:1] for b in self.sets]
        if self.pair is not None:
            out.append((self.pair,))
        return tuple(out)

    @property
    def combos(self):
        """Guobiao set-combination fans of this reading (8.4), as a Counter."""
        if self._combos is None:
            self._combos = (set_combination_fans(self.chows, self.pungs, self.pair)
                            if self.standard else {})
        return self._combos

    @property
    def wait_fan(self) -> str | None:
        if self._wait_fan is False:
            self._wait_fan = wait_fan(self)
        return self._wait_fan


def _rank_span(kinds) -> list[str]:
    """Where the number tiles of an honorless hand lie: "upper" (6-9), "middle" (4-6),
    "lower" (1-4), "simple" (2-8)."""
    ranks = [k % 9 + 1 for k in kinds]
    low, high = min(ranks), max(ranks)
    spans = [("upper", low >= 6), ("middle", low >= 4 and high <= 6), ("lower", high <= 4),
             ("simple", low >= 2 and high <= 8)]
    return [name for name, inside in spans if inside]


def _all_counts(decomp: Decomposition) -> list[int]:
    """Copies of each kind in the whole hand, kongs as four (as the blocks play)."""
    counts = [0] * 34
    for block in decomp.blocks:
        for kind in block.tiles:
            counts[kind] += 1
    return counts
