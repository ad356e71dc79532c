"""Facts about one reading of a winning hand, computed once and read by every fan
predicate (so predicates stay one-liners and nothing is recomputed per fan).

``features`` is the set of coarse facts that fans declare as needs (``predicates.needs``):
the reading's shape ("standard" or the form name, "knitted", "chow", "pung", "kong",
"pair", "concealed_pungs" (two or more) and the exact counts "concealed_pungs_N",
"kongs_N", "melded_kongs_N", "concealed_kongs_N"), what the tiles alone say
(``TileFacts``: "honor"/"no_honor", "wind", "dragon", "no_suit"/"suited",
"one_suit"/"two_suits"/"three_suits", the rank span of an honorless hand ("upper",
"middle", "lower", "simple" and each "ranks_LOW_HIGH" a fan asks for), "terminals"/
"yaojiu" (every tile a terminal / a terminal or honor), "green", "reversible", "hog"
(four of a kind that is not a kong)), "outside"/"fives" (every set and the pair holds a
terminal or honor / a 5), the set-combination fans it holds, and the win's situation
(``Situation.features``). A fan whose needs are not all present is not evaluated at
all, and one whose needs are its whole condition (``predicates.exact``) is counted
without a call.

Features are bits of one int (``bit``), so a reading's features cost a few ``|``;
``Facts.features`` names them for readers."""

from __future__ import annotations

from ..shapes import (CHOW, KONG, PAIR, PUNG, QUAN_BU_KAO, STANDARD, ZU_HE_LONG, Decomposition,
                      WinContext)
from .combos import set_combination_fans
from .features import bit, names
from .predicates import (DRAGON_KINDS, GREEN_KINDS, RANK_RANGES, REVERSIBLE_KINDS, TERMINAL_KINDS,
                         WIND_KINDS, YAOJIU_KINDS, wait_fan)

SET_SHAPES = (CHOW, PUNG, KONG)
KNITTED_FORMS = (ZU_HE_LONG, QUAN_BU_KAO)

HONOR, NO_HONOR = bit("honor"), bit("no_honor")
STANDARD_BIT, CHOW_BIT, PUNG_BIT, KONG_BIT = bit("standard"), bit("chow"), bit("pung"), bit("kong")
PAIR_BIT, ONE_SUIT, TWO_SUITS = bit("pair"), bit("one_suit"), bit("two_suits")
THREE_SUITS, NO_SUIT, SUITED = bit("three_suits"), bit("no_suit"), bit("suited")
KNITTED_BIT, CONCEALED_PUNGS, HOG = bit("knitted"), bit("concealed_pungs"), bit("hog")
UPPER, MIDDLE, LOWER, SIMPLE = bit("upper"), bit("middle"), bit("lower"), bit("simple")
GREEN, REVERSIBLE, WAIT_ROLES = bit("green"), bit("reversible"), bit("wait_roles")
TERMINALS, YAOJIU = bit("terminals"), bit("yaojiu")   # every tile a terminal / 幺九
WIND, DRAGON = bit("wind"), bit("dragon")             # some wind / dragon tile held
NO_CHOW, NO_PUNG = bit("no_chow"), bit("no_pung")
OUTSIDE, FIVES = bit("outside"), bit("fives")   # every set and the pair: 幺九 / a 5
WIND_PUNG, DRAGON_PUNG = bit("wind_pung"), bit("dragon_pung")
TERMINAL_OR_WIND_PUNG = bit("terminal_or_wind_pung")
_PUNG_BITS = tuple((WIND_PUNG | TERMINAL_OR_WIND_PUNG if 27 <= k <= 30 else DRAGON_PUNG if k > 30
                    else TERMINAL_OR_WIND_PUNG if k % 9 in (0, 8) else 0) for k in range(34))
# Exact counts: "concealed_pungs_3", "kongs_2", "melded_kongs_1", "concealed_kongs_0", …
CONCEALED_PUNG_BITS = tuple(bit(f"concealed_pungs_{n}") for n in range(6))
KONG_BITS = tuple(bit(f"kongs_{n}") for n in range(6))
MELDED_KONG_BITS = tuple(bit(f"melded_kongs_{n}") for n in range(6))
CONCEALED_KONG_BITS = tuple(bit(f"concealed_kongs_{n}") for n in range(6))
SUIT_COUNT_BITS = (NO_SUIT, ONE_SUIT | SUITED, TWO_SUITS | SUITED, THREE_SUITS | SUITED)
FORM_BITS = {}  # form name -> bit, filled as forms are seen


class TileFacts:
    """What the tiles alone say, whatever the reading: the same for every reading of a
    hand without wilds (``Facts`` then computes it once per hand)."""

    __slots__ = ("counts", "kinds", "suits", "has_honors", "bits")

    def __init__(self, blocks):
        counts = [0] * 34
        kongs = []
        for block in blocks:
            for kind in block.tiles:
                counts[kind] += 1
            if block.shape == KONG:
                kongs.append(block.tiles[0])
        self.counts = counts
        kinds = self.kinds = frozenset([k for k in range(34) if counts[k]])
        suits = self.suits = frozenset([k // 9 for k in kinds if k < 27])
        has_honors = self.has_honors = max(kinds) >= 27
        out = SUIT_COUNT_BITS[len(suits)]
        if has_honors:
            out |= HONOR
            if kinds & WIND_KINDS:
                out |= WIND
            if kinds & DRAGON_KINDS:
                out |= DRAGON
        else:
            out |= NO_HONOR | _rank_span(kinds)
        if 4 in counts and counts.count(4) > sum(1 for k in kongs if counts[k] == 4):
            out |= HOG   # four of a kind that is not a kong
        if kinds <= YAOJIU_KINDS:
            out |= YAOJIU
            if kinds <= TERMINAL_KINDS:
                out |= TERMINALS
        if kinds <= GREEN_KINDS:
            out |= GREEN
        if kinds <= REVERSIBLE_KINDS:
            out |= REVERSIBLE
        self.bits = out


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
        blocks = decomp.blocks
        # Without wilds every reading holds the same tiles: their facts are the hand's.
        tiles = situation.tiles if ctx.wild is None else None
        if tiles is None:
            tiles = TileFacts(blocks)
            if ctx.wild is None:
                situation.tiles = tiles
        self.counts = tiles.counts
        self.kinds = tiles.kinds
        self.suits = tiles.suits
        self.has_honors = tiles.has_honors
        # One pass over the blocks. Sets are the reading's blocks (melds included);
        # kongs count as pungs.
        sets, chows, pungs, kongs, pairs = [], [], [], [], []
        melded_kongs = concealed_pungs = 0
        win = ctx.win
        roles = False  # the winning tile can sit in a concealed chow or the pair
        outside = fives = True
        for block in blocks:
            shape = block.shape
            first = block.tiles[0]
            if shape == CHOW:
                sets.append(block)
                chows.append(first)
                if block.meld is None and first <= win <= first + 2:
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
                pairs.append(first)
                if first == win:
                    roles = True
        if len(chows) > 1:
            chows.sort()
        out = situation.bits | tiles.bits | CONCEALED_PUNG_BITS[concealed_pungs]
        if pungs:
            pungs.sort()
            out |= PUNG_BIT
            for kind in pungs:
                out |= _PUNG_BITS[kind]
        else:
            out |= NO_PUNG
        self.sets = tuple(sets)
        chows = self.chows = tuple(chows)
        pungs = self.pungs = tuple(pungs)
        self.kongs = tuple(kongs)
        self.melded_kongs = melded_kongs
        concealed_kongs = self.concealed_kongs = len(kongs) - melded_kongs
        self.concealed_pungs = concealed_pungs
        # The pair of a standard hand, or of 组合龙 + set + pair; seven pairs has no 将.
        pair = self.pair = pairs[0] if pairs and (standard or form == ZU_HE_LONG) else None
        self._combos = None
        self._wait_fan = False
        # Features as bits (see the module docstring).
        form_bit = FORM_BITS.get(form) or FORM_BITS.setdefault(form, bit(form))
        out |= form_bit
        if standard:
            out |= STANDARD_BIT
            if len(chows) > 1 or len(pungs) > 1:
                self._combos, combo_bits = set_combination_fans(chows, pungs, pair)
                out |= combo_bits
        out |= CHOW_BIT if chows else NO_CHOW
        if kongs:
            out |= (KONG_BIT | KONG_BITS[len(kongs)] | MELDED_KONG_BITS[melded_kongs]
                    | CONCEALED_KONG_BITS[concealed_kongs])
        if pair is not None:
            out |= PAIR_BIT
        if form in KNITTED_FORMS:
            out |= KNITTED_BIT
        if concealed_pungs >= 2:
            out |= CONCEALED_PUNGS
        if roles:
            out |= WAIT_ROLES
        if outside:
            out |= OUTSIDE
        if fives:
            out |= FIVES
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
            self._combos = (set_combination_fans(self.chows, self.pungs, self.pair)[0]
                            if self.standard else {})
        return self._combos

    @property
    def wait_fan(self) -> str | None:
        if self._wait_fan is False:
            self._wait_fan = wait_fan(self)
        return self._wait_fan


def _rank_span(kinds) -> int:
    """Where the number tiles of an honorless hand lie: "upper" (6-9), "middle" (4-6),
    "lower" (1-4), "simple" (2-8), and each range of ``predicates.ranks`` ("ranks_7_9")."""
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
    for (least, most), feature in RANK_RANGES.items():
        if least <= low and high <= most:
            out |= feature
    return out
