"""Facts about one reading of a winning hand, computed once and read by every fan
predicate (so predicates stay one-liners and nothing is recomputed per fan)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..shapes import CHOW, KONG, PAIR, PUNG, STANDARD, ZU_HE_LONG, Decomposition, WinContext
from .combos import set_combination_fans
from ..tiles import is_honor, is_number


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
    """One decomposition in context. Cheap fields are computed eagerly; the rest lazily."""

    def __init__(self, decomp: Decomposition, ctx: WinContext, situation, options=None):
        self.decomp = decomp
        self.ctx = ctx
        self.form = decomp.form
        self.situation = situation
        self.options = options or {}
        self.sets = tuple(_set_info(b) for b in decomp.blocks if b.shape in (CHOW, PUNG, KONG))
        self.chows = tuple(sorted(s.first for s in self.sets if s.shape == CHOW))
        self.pungs = tuple(sorted(s.first for s in self.sets if s.is_pung))
        # The pair of a standard hand, or of 组合龙 + set + pair; seven pairs has no 将.
        pairs = [b.first for b in decomp.blocks if b.shape == PAIR]
        self.pair = pairs[0] if decomp.form in (STANDARD, ZU_HE_LONG) and pairs else None
        self.counts = _all_counts(decomp)
        self.kinds = frozenset(k for k, n in enumerate(self.counts) if n)
        self.melded = sum(1 for m in ctx.melds if m.type != "ankan")
        self.tsumo = ctx.tsumo

    @cached_property
    def kongs(self) -> tuple[SetInfo, ...]:
        return tuple(s for s in self.sets if s.shape == KONG)

    @cached_property
    def concealed_kongs(self) -> int:
        return sum(1 for s in self.kongs if not s.melded)

    @cached_property
    def melded_kongs(self) -> int:
        return sum(1 for s in self.kongs if s.melded)

    @cached_property
    def concealed_pungs(self) -> int:
        """暗刻 incl. concealed kongs (3.8.5)."""
        return sum(1 for s in self.sets if s.is_pung and s.concealed)

    @cached_property
    def suits(self) -> frozenset[int]:
        """Number suits present (0 m, 1 p, 2 s)."""
        return frozenset(k // 9 for k in self.kinds if k < 27)

    @cached_property
    def has_honors(self) -> bool:
        return any(is_honor(k) for k in self.kinds)

    @cached_property
    def ranks(self) -> frozenset[int]:
        """Ranks 1-9 of the number tiles present."""
        return frozenset(k % 9 + 1 for k in self.kinds if is_number(k))

    @cached_property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """The kinds of every set and of the pair (for 全带幺 / 全带五-style fans)."""
        out = [s.kinds for s in self.sets]
        if self.pair is not None:
            out.append((self.pair,))
        return tuple(out)

    @cached_property
    def combos(self):
        """Guobiao set-combination fans of this reading (8.4), as a Counter."""
        return set_combination_fans(self.chows, self.pungs, self.pair) if self.standard else {}

    @property
    def standard(self) -> bool:
        return self.form == STANDARD


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

