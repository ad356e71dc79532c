"""Facts about one reading of a winning hand, computed once and read by every fan
predicate (so predicates stay one-liners and nothing is recomputed per fan).

``features`` is the set of coarse facts that fans declare as needs (``predicates.needs``):
the reading's shape ("standard" or the form name, "chow", "pung", "kong", "pair",
"honor"/"no_honor", "one_suit", "hog") and the win's situation (``Situation.features``).
A fan whose needs are not all present is not evaluated at all."""

from __future__ import annotations

from dataclasses import dataclass

from ..shapes import CHOW, KONG, PAIR, PUNG, STANDARD, ZU_HE_LONG, Decomposition, WinContext
from .combos import set_combination_fans
from .predicates import wait_fan

@dataclass(frozen=True, slots=True)
class SetInfo:
    """A set (chow, pung or kong) reduced to what fans look at."""

    shape: str          # CHOW | PUNG | KONG
    first: int          # lowest kind (the kind itself for pungs/kongs)
    concealed: bool     # 暗: every tile drawn by the player (3.8.5)
    melded: bool        # declared by chi/pon/kan (an ankan is declared but not melded)

    @property
    def is_pung(self) -> bool:   # kongs count as pungs (RULES.md glossary)
        return self.shape != CHOW

    @property
    def kinds(self) -> tuple[int, ...]:
        if self.shape == CHOW:
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,)


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
        self.sets = tuple(_set_info(b) for b in decomp.blocks if b.shape in (CHOW, PUNG, KONG))
        self.chows = tuple(sorted(s.first for s in self.sets if s.shape == CHOW))
        self.pungs = tuple(sorted(s.first for s in self.sets if s.shape != CHOW))
        self.kongs = tuple(s for s in self.sets if s.shape == KONG)
        self.concealed_kongs = sum(1 for s in self.kongs if not s.melded)
        self.melded_kongs = len(self.kongs) - self.concealed_kongs
        self.concealed_pungs = sum(1 for s in self.sets if s.shape != CHOW and s.concealed)
        # The pair of a standard hand, or of 组合龙 + set + pair; seven pairs has no 将.
        pairs = [b.tiles[0] for b in decomp.blocks if b.shape == PAIR]
        self.pair = pairs[0] if decomp.form in (STANDARD, ZU_HE_LONG) and pairs else None
        self.counts = _all_counts(decomp)
        self.kinds = frozenset(k for k, n in enumerate(self.counts) if n)
        self.suits = frozenset(k // 9 for k in self.kinds if k < 27)
        self.has_honors = any(k >= 27 for k in self.kinds)
        self.features = situation.features | self._shape_features()
        self._combos = None
        self._wait_fan = False

    def _shape_features(self) -> frozenset[str]:
        out = {self.form, "honor" if self.has_honors else "no_honor"}
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
        if 4 in self.counts:
            out.add("hog")
        return frozenset(out)

    @property
    def ranks(self) -> frozenset[int]:
        """Ranks 1-9 of the number tiles present."""
        return frozenset(k % 9 + 1 for k in self.kinds if k < 27)

    @property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """The kinds of every set and of the pair (for 全带幺 / 全带五-style fans)."""
        out = [s.kinds for s in self.sets]
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


def _set_info(block) -> SetInfo:
    return SetInfo(block.shape, block.tiles[0], block.concealed,
                   block.meld is not None and block.meld != "ankan")


def _all_counts(decomp: Decomposition) -> list[int]:
    """Copies of each kind in the whole hand, kongs as four (as the blocks play)."""
    counts = [0] * 34
    for block in decomp.blocks:
        for kind in block.tiles:
            counts[kind] += 1
    return counts
