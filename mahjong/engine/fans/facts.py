"""Facts about one reading of a winning hand, computed once and read by every fan
predicate (so predicates stay one-liners and nothing is recomputed per fan).

``features`` is the set of coarse facts that fans declare as needs (``predicates.needs``):
the reading's shape ("standard" or the form name, "knitted", "chow", "pung", "kong",
"pair", "concealed_pungs" (two or more), "honor"/"no_honor", the rank span of an
honorless hand ("upper", "middle", "lower", "simple"), "one_suit"/"two_suits"/
"three_suits", "hog" (four of a kind that is not a kong), "outside"/"fives" (every set
and the pair holds a terminal or honor / a 5), and the set-combination fans it holds)
and the win's situation (``Situation.features``).
A fan whose needs are not all present is not evaluated at all.

Features are bits of one int (``bit``), so a reading's features cost a few ``|`` and the
table's plan for them is one dict lookup; ``Facts.features`` names them for readers."""

from __future__ import annotations

from ..shapes import (CHOW, KONG, PAIR, PUNG, QUAN_BU_KAO, STANDARD, ZU_HE_LONG, Decomposition,
                      WinContext)
from .combos import set_combination_fans
from .features import bit, names
from .predicates import GREEN_KINDS, REVERSIBLE_KINDS, YAOJIU_KINDS, wait_fan

SET_SHAPES = (CHOW, PUNG, KONG)
KNITTED_FORMS = (ZU_HE_LONG, QUAN_BU_KAO)

HONOR, NO_HONOR = bit("honor"), bit("no_honor")
STANDARD_BIT, CHOW_BIT, PUNG_BIT, KONG_BIT = bit("standard"), bit("chow"), bit("pung"), bit("kong")
PAIR_BIT, ONE_SUIT, TWO_SUITS = bit("pair"), bit("one_suit"), bit("two_suits")
THREE_SUITS = bit("three_suits")
KNITTED_BIT, CONCEALED_PUNGS, HOG = bit("knitted"), bit("concealed_pungs"), bit("hog")
UPPER, MIDDLE, LOWER, SIMPLE = bit("upper"), bit("middle"), bit("lower"), bit("simple")
GREEN, REVERSIBLE, WAIT_ROLES = bit("green"), bit("reversible"), bit("wait_roles")
NO_CHOW, NO_PUNG = bit("no_chow"), bit("no_pung")
OUTSIDE, FIVES = bit("outside"), bit("fives")   # every set and the pair: 幺九 / a 5
WIND_PUNG, DRAGON_PUNG = bit("wind_pung"), bit("dragon_pung")
TERMINAL_OR_WIND_PUNG = bit("terminal_or_wind_pung")
_PUNG_BITS = tuple((WIND_PUNG | TERMINAL_OR_WIND_PUNG if 27 <= k <= 30 else DRAGON_PUNG if k > 30
                    else TERMINAL_OR_WIND_PUNG if k % 9 in (0, 8) else 0) for k in range(34))
FORM_BITS = {}  # form name -> bit, filled as forms are seen


class Facts:
    """One decomposition in context."""

    __slots__ = ("decomp", "ctx", "form", "standard", "situation", "options", "tsumo",
                 "melded", "sets", "chows", "pungs", "kongs", "melded_kongs",
                 "concealed_kongs", "concealed_pungs", "pair", "counts", "kinds", "suits",
                 "has_honors", "_combos", "bits", "_wait_fan")

    def __init__(self, decomp: Decomposition, ctx: WinContext, situation, options=None):
        self.decomp = decomp
        self.ctx = ctx
        form = self.form = decomp.form
        standard = self.standard = form == STANDARD
        self.situation = situation
        self.options = options or {}
        self.tsumo = ctx.tsumo
        self.melded = situation.melded
        # One pass over the blocks. Sets are the reading's blocks (melds included);
        # kongs count as pungs.
        sets, chows, pungs, kongs, pairs = [], [], [], [], []
        melded_kongs = concealed_pungs = 0
        counts = [0] * 34
        seen = set()
        win = ctx.win
        roles = False  # the winning tile can sit in a concealed chow or the pair
        outside = fives = True
        for block in decomp.blocks:
            shape = block.shape
            tiles = block.tiles
            seen.update(tiles)
            for kind in tiles:
                counts[kind] += 1
            first = tiles[0]
            if shape == CHOW:
                sets.append(block)
                chows.append(first)
                if block.meld is None and win in tiles:
                    roles = True
                rank = first % 9
                outside = outside and (rank == 0 or rank == 6)
                fives = fives and 2 <= rank <= 4
                continue
            outside = outside and first in YAOJIU_KINDS
            fives = fives and first < 27 and first % 9 == 4
            if shape == PUNG or shape == KONG:
                sets.append(block)
                pungs.append(first)
                if block.concealed:
                    concealed_pungs += 1
                if shape == KONG:
                    kongs.append(block)
                    if block.meld == "kan":
                        melded_kongs += 1
            elif shape == PAIR:
                pairs.append(tiles[0])
                if tiles[0] == win:
                    roles = True
        chows.sort()
        pungs.sort()
        pung_bits = 0
        for kind in pungs:
            pung_bits |= _PUNG_BITS[kind]
        self.sets = tuple(sets)
        self.chows = tuple(chows)
        self.pungs = tuple(pungs)
        self.kongs = tuple(kongs)
        self.melded_kongs = melded_kongs
        self.concealed_kongs = len(kongs) - melded_kongs
        self.concealed_pungs = concealed_pungs
        # The pair of a standard hand, or of 组合龙 + set + pair; seven pairs has no 将.
        self.pair = pairs[0] if pairs and (standard or form == ZU_HE_LONG) else None
        self.counts = counts
        kinds = self.kinds = frozenset(seen)
        suits = self.suits = frozenset([k // 9 for k in kinds if k < 27])
        has_honors = self.has_honors = max(kinds) >= 27
        self._combos = None
        self._wait_fan = False
        # Features as bits (see the module docstring).
        form_bit = FORM_BITS.get(form) or FORM_BITS.setdefault(form, bit(form))
        out = situation.bits | form_bit
        if has_honors:
            out |= HONOR
        else:
            out |= NO_HONOR | _rank_span(kinds)
        if standard:
            out |= STANDARD_BIT
        out |= CHOW_BIT if chows else NO_CHOW
        out |= PUNG_BIT | pung_bits if pungs else NO_PUNG
        if kongs:
            out |= KONG_BIT
        if self.pair is not None:
            out |= PAIR_BIT
        if len(suits) == 1:
            out |= ONE_SUIT
        elif len(suits) == 2:
            out |= TWO_SUITS
        elif len(suits) == 3:
            out |= THREE_SUITS
        if form in KNITTED_FORMS:
            out |= KNITTED_BIT
        if concealed_pungs >= 2:
            out |= CONCEALED_PUNGS
        if 4 in counts and counts.count(4) > sum(1 for k in kongs if counts[k.tiles[0]] == 4):
            out |= HOG   # four of a kind that is not a kong
        if roles:
            out |= WAIT_ROLES
        if outside:
            out |= OUTSIDE
        if fives:
            out |= FIVES
        if kinds <= GREEN_KINDS:
            out |= GREEN
        if kinds <= REVERSIBLE_KINDS:
            out |= REVERSIBLE
        if standard and (chows or pungs):
            for key in self.combos:
                out |= bit(key)
        self.bits = out

    @property
    def features(self) -> frozenset[str]:
        """The reading's features by name (the pipeline reads ``bits``)."""
        return names(self.bits)

    def has(self, mask: int) -> bool:
        return self.bits & mask == mask

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
        """Guobiao set-combination fans of this reading (8.4), as a mapping."""
        if self._combos is None:
            self._combos = (set_combination_fans(self.chows, self.pungs, self.pair)
                            if self.standard else {})
        return self._combos

    @property
    def wait_fan(self) -> str | None:
        if self._wait_fan is False:
            self._wait_fan = wait_fan(self)
        return self._wait_fan


def _rank_span(kinds) -> int:
    """Where the number tiles of an honorless hand lie: "upper" (6-9), "middle" (4-6),
    "lower" (1-4), "simple" (2-8)."""
    low, high = 9, 0
    for k in kinds:
        rank = k % 9 + 1
        if rank < low:
            low = rank
        if rank > high:
            high = rank
    out = 0
    if low >= 6:
        out |= UPPER
    if low >= 4 and high <= 6:
        out |= MIDDLE
    if high <= 4:
        out |= LOWER
    if low >= 2 and high <= 8:
        out |= SIMPLE
    return out
