"""Facts about one reading of a winning hand, computed once and read by every fan
predicate (so predicates stay one-liners and nothing is recomputed per fan).

``features`` is the set of coarse facts that fans declare as needs (``predicates.needs``):
the reading's shape ("standard" or the form name, "knitted", "chow", "pung", "kong",
"pair", "concealed_pungs" (two or more) and the exact counts "concealed_pungs_N",
"kongs_N", "melded_kongs_N", "concealed_kongs_N", "wind_pungs_N", "dragon_pungs_N"),
what the tiles alone say
(``TileFacts``: "honor"/"no_honor", "wind", "dragon", "no_suit"/"suited",
"one_suit"/"two_suits"/"three_suits", the rank span of an honorless hand ("upper",
"middle", "lower", "simple" and each "ranks_LOW_HIGH" a fan asks for), "terminals"/
"yaojiu" (every tile a terminal / a terminal or honor), "green", "reversible", "hog"
(four of a kind that is not a kong)), "outside"/"fives"/"even" (every set and the pair
holds a terminal or honor / holds a 5 / is a pung or pair of an even number), the
set-combination fans it holds, and the win's situation
(``Situation.features``). A fan whose needs are not all present is not evaluated at
all, and one whose needs are its whole condition (``predicates.exact``) is counted
without a call.

Features are bits of one int (``bit``), so a reading's features cost a few ``|``;
``Facts.features`` names them for readers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, Protocol

from ..shapes import (
    CHOW,
    KONG,
    PAIR,
    PUNG,
    QUAN_BU_KAO,
    STANDARD,
    ZU_HE_LONG,
    Block,
    Decomposition,
    WinContext,
)
from .combos import set_combination_fans
from .features import bit, names
from .predicates import GREEN_KINDS, RANK_RANGES, REVERSIBLE_KINDS, YAOJIU_KINDS, wait_fan

SET_SHAPES = (CHOW, PUNG, KONG)
KNITTED_FORMS = (ZU_HE_LONG, QUAN_BU_KAO)

HONOR, NO_HONOR = bit("honor"), bit("no_honor")
STANDARD_BIT, CHOW_BIT, PUNG_BIT, KONG_BIT = bit("standard"), bit("chow"), bit("pung"), bit("kong")
PAIR_BIT, ONE_SUIT, TWO_SUITS = bit("pair"), bit("one_suit"), bit("two_suits")
THREE_SUITS, NO_SUIT, SUITED = bit("three_suits"), bit("no_suit"), bit("suited")
KNITTED_BIT, CONCEALED_PUNGS, HOG = bit("knitted"), bit("concealed_pungs"), bit("hog")
UPPER, MIDDLE, LOWER, SIMPLE = bit("upper"), bit("middle"), bit("lower"), bit("simple")
GREEN, REVERSIBLE, WAIT_ROLES = bit("green"), bit("reversible"), bit("wait_roles")
TERMINALS, YAOJIU = bit("terminals"), bit("yaojiu")  # every tile a terminal / 幺九
WIND, DRAGON = bit("wind"), bit("dragon")  # some wind / dragon tile held
NO_CHOW, NO_PUNG = bit("no_chow"), bit("no_pung")
OUTSIDE, FIVES = bit("outside"), bit("fives")  # every set and the pair: 幺九 / a 5
WIND_PUNG, DRAGON_PUNG = bit("wind_pung"), bit("dragon_pung")
TERMINAL_OR_WIND_PUNG = bit("terminal_or_wind_pung")
_PUNG_BITS = tuple(
    (
        WIND_PUNG | TERMINAL_OR_WIND_PUNG
        if 27 <= k <= 30
        else DRAGON_PUNG
        if k > 30
        else TERMINAL_OR_WIND_PUNG
        if k % 9 in (0, 8)
        else 0
    )
    for k in range(34)
)
# Exact counts: "concealed_pungs_3", "kongs_2", "melded_kongs_1", "concealed_kongs_0", …
CONCEALED_PUNG_BITS = tuple(bit(f"concealed_pungs_{n}") for n in range(6))
KONG_BITS = tuple(bit(f"kongs_{n}") for n in range(6))
MELDED_KONG_BITS = tuple(bit(f"melded_kongs_{n}") for n in range(6))
CONCEALED_KONG_BITS = tuple(bit(f"concealed_kongs_{n}") for n in range(6))
WIND_PUNG_BITS = tuple(bit(f"wind_pungs_{n}") for n in range(5))
DRAGON_PUNG_BITS = tuple(bit(f"dragon_pungs_{n}") for n in range(4))
EVEN = bit("even")  # every set and the pair: a pung or pair of an even number
SUIT_COUNT_BITS = (NO_SUIT, ONE_SUIT | SUITED, TWO_SUITS | SUITED, THREE_SUITS | SUITED)
FORM_BITS: dict[str, int] = {}  # form name -> bit, filled as forms are seen
# What a block starting on a kind has: a terminal or honor (全带幺), a 5 (全带五), an
# even number as a pung or pair (全双刻); per chow and per other block.
_OUTSIDE, _FIVES, _EVEN = 1, 2, 4
_CHOW_HAS = tuple(
    (_OUTSIDE if k % 9 in (0, 6) else 0) | (_FIVES if 2 <= k % 9 <= 4 else 0) if k < 27 else 0
    for k in range(34)
)
_GROUP_HAS = tuple(
    (_OUTSIDE if k in YAOJIU_KINDS else 0)
    | (_FIVES if k < 27 and k % 9 == 4 else 0)
    | (_EVEN if k < 27 and k % 9 % 2 == 1 else 0)
    for k in range(34)
)
_EVERY_BITS = tuple(
    (OUTSIDE if every & _OUTSIDE else 0)
    | (FIVES if every & _FIVES else 0)
    | (EVEN if every & _EVEN else 0)
    for every in range(8)
)
# Facts.roles: the winning tile at the end / in the middle of a concealed chow, or in
# the pair (edge, closed and single waits when it is the only winning kind).
ROLE_EDGE, ROLE_MIDDLE, ROLE_PAIR = 1, 2, 4


class TileFacts:
    """What the tiles alone say, whatever the reading: the same for every reading of a
    hand without wilds (``Facts`` then reads it off the hand once, ``of_hand``).

    Tiles are counted per suit in one int each, 5 bits a kind (``FIELD``: room for any
    count a hand can reach, wilds and bad input included); what a suit's count says
    (which ranks, how many fours) is kept per count, so a hand costs one pass over its
    tiles and four look-ups."""

    __slots__ = ("keys", "has_honors", "hogs", "bits", "_counts", "_kinds")

    def __init__(self, keys: list[int], kongs: Iterable[int]) -> None:
        """``keys``: the suit counts (m, p, s, honors, and flowers, which no hand may
        hold: ``check_tiles`` refuses them); ``kongs``: the kind of each kong."""
        self.keys = keys
        self._counts: list[int] | None = None
        self._kinds: frozenset[int] | None = None
        m, p, s, z, _ = keys
        known = _SUIT_TILES.get
        m_ranks, fours = known(m) or _suit_tiles(m)
        p_ranks, p_fours = known(p) or _suit_tiles(p)
        s_ranks, s_fours = known(s) or _suit_tiles(s)
        honors, z_fours = known(z) or _suit_tiles(z)
        fours += p_fours + s_fours + z_fours
        self.has_honors = z != 0
        ranks = m_ranks | p_ranks | s_ranks
        out = SUIT_COUNT_BITS[(m > 0) + (p > 0) + (s > 0)]
        if z:
            out |= HONOR
            if honors & 0b1111:
                out |= WIND
            if honors & 0b1110000:
                out |= DRAGON
        else:
            out |= NO_HONOR | _rank_span(ranks)
        if fours:  # four of a kind that is not a kong
            fours -= sum(1 for k in kongs if keys[k // 9] >> _SHIFT[k] & 31 == 4)
            if fours:
                out |= HOG
        self.hogs = fours
        if not ranks & ~0b100000001:
            out |= YAOJIU
            if not z:
                out |= TERMINALS
        if not m and not p and not s_ranks & ~_GREEN_S and not honors & ~_GREEN_Z:
            out |= GREEN
        if (
            not m
            and not p_ranks & ~_REVERSIBLE_P
            and not s_ranks & ~_REVERSIBLE_S
            and not honors & ~_REVERSIBLE_Z
        ):
            out |= REVERSIBLE
        self.bits = out

    @classmethod
    def of_hand(cls, ctx: WinContext) -> TileFacts:
        """The concealed tiles, the winning tile and the melds' (no wilds)."""
        keys = [0, 0, 0, 0, 0]
        for kind in ctx.hand:
            keys[_SUIT[kind]] += _UNIT[kind]
        keys[_SUIT[ctx.win]] += _UNIT[ctx.win]
        kongs: list[int] = []
        for meld in ctx.melds:
            for kind in meld.tiles:
                keys[_SUIT[kind]] += _UNIT[kind]
            if meld.type == "kan" or meld.type == "ankan":
                kongs.append(meld.tiles[0])
        return cls(keys, kongs)

    @classmethod
    def of_blocks(cls, blocks: Iterable[Block]) -> TileFacts:
        """The kinds the blocks play as (wilds as the kind they stand for)."""
        keys = [0, 0, 0, 0, 0]
        kongs: list[int] = []
        for block in blocks:
            for kind in block.tiles:
                keys[_SUIT[kind]] += _UNIT[kind]
            if block.shape == KONG:
                kongs.append(block.tiles[0])
        return cls(keys, kongs)

    @property
    def suits(self) -> frozenset[int]:
        """The number suits held (0-2)."""
        return frozenset([suit for suit in (0, 1, 2) if self.keys[suit]])

    @property
    def counts(self) -> list[int]:
        if self._counts is None:
            self._counts = [self.keys[k // 9] >> _SHIFT[k] & 31 for k in range(34)]
        return self._counts

    @property
    def kinds(self) -> frozenset[int]:
        if self._kinds is None:
            self._kinds = frozenset([k for k, n in enumerate(self.counts) if n])
        return self._kinds


FIELD = 5  # bits per kind in a suit's count
_SUIT = tuple(k // 9 if k < 34 else 4 for k in range(42))  # flowers: a fifth "suit"
_SHIFT = tuple(FIELD * (k % 9 if k < 34 else k - 34) for k in range(42))
_UNIT = tuple(1 << shift for shift in _SHIFT)


def _ranks_mask(kinds: Iterable[int], base: int) -> int:
    return sum(1 << (k - base) for k in kinds)


_GREEN_S = _ranks_mask((k for k in GREEN_KINDS if 18 <= k < 27), 18)
_GREEN_Z = _ranks_mask((k for k in GREEN_KINDS if k >= 27), 27)
_REVERSIBLE_P = _ranks_mask((k for k in REVERSIBLE_KINDS if 9 <= k < 18), 9)
_REVERSIBLE_S = _ranks_mask((k for k in REVERSIBLE_KINDS if 18 <= k < 27), 18)
_REVERSIBLE_Z = _ranks_mask((k for k in REVERSIBLE_KINDS if k >= 27), 27)
_SUIT_TILES: dict[int, tuple[int, int]] = {0: (0, 0)}


def _suit_tiles(key: int) -> tuple[int, int]:
    """One suit's count (5 bits a kind) -> (the ranks held as a mask, kinds held 4 times)."""
    found = _SUIT_TILES.get(key)
    if found is None:
        digits = [key >> shift & 31 for shift in range(0, 9 * FIELD, FIELD)]
        found = _SUIT_TILES[key] = (sum(1 << i for i, n in enumerate(digits) if n), digits.count(4))
    return found


class SituationLike(Protocol):
    """What Facts read of the win's ``situation.Situation``. A protocol because the
    situation keeps the hand's TileFacts, so it imports this module (no import cycles
    between the scorer's modules: pyproject.toml, importlinter)."""

    tiles: TileFacts | None

    @property
    def melded(self) -> int: ...
    @property
    def bits(self) -> int: ...
    @property
    def unique_wait(self) -> bool: ...


class Facts:
    """One decomposition in context."""

    __slots__ = (
        "decomp",
        "ctx",
        "form",
        "standard",
        "situation",
        "options",
        "tsumo",
        "melded",
        "sets",
        "chows",
        "pungs",
        "kongs",
        "melded_kongs",
        "concealed_kongs",
        "concealed_pungs",
        "pair",
        "tiles",
        "has_honors",
        "_combos",
        "bits",
        "roles",
        "_wait_fan",
    )

    def __init__(
        self,
        decomp: Decomposition,
        ctx: WinContext,
        situation: SituationLike,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.decomp = decomp
        self.ctx = ctx
        form = self.form = decomp.form
        standard = self.standard = form == STANDARD
        self.situation = situation
        self.options: Mapping[str, Any] = options or {}
        self.tsumo = ctx.tsumo
        self.melded = situation.melded
        blocks = decomp.blocks
        # Without wilds every reading holds the same tiles: their facts are the hand's.
        if ctx.wild is None:
            tiles = situation.tiles
            if tiles is None:
                tiles = situation.tiles = TileFacts.of_hand(ctx)
        else:
            tiles = TileFacts.of_blocks(blocks)
        self.tiles = tiles
        self.has_honors = tiles.has_honors
        # One pass over the blocks. Sets are the reading's blocks (melds included);
        # kongs count as pungs.
        sets: list[Block] = []
        chow_list: list[int] = []  # sorted, then the tuples chows and pungs
        pung_list: list[int] = []
        kongs: list[Block] = []
        pairs: list[int] = []
        melded_kongs = concealed_pungs = 0
        win = ctx.win
        roles = 0  # where the winning tile can sit: ROLE_EDGE | ROLE_MIDDLE | ROLE_PAIR
        every = _OUTSIDE | _FIVES | _EVEN  # what every block so far has
        for block in blocks:
            shape = block.shape
            first = block.tiles[0]
            if shape == CHOW:
                sets.append(block)
                chow_list.append(first)
                if block.meld is None and first <= win <= first + 2:
                    roles |= ROLE_MIDDLE if win == first + 1 else ROLE_EDGE
                every &= _CHOW_HAS[first]
                continue
            every &= _GROUP_HAS[first]
            if shape == PUNG or shape == KONG:
                sets.append(block)
                pung_list.append(first)
                if block.concealed:
                    concealed_pungs += 1
                if shape == KONG:
                    kongs.append(block)
                    if block.meld == "kan":
                        melded_kongs += 1
            elif shape == PAIR:
                pairs.append(first)
                if first == win:
                    roles |= ROLE_PAIR
        if len(chow_list) > 1:
            chow_list.sort()
        out = situation.bits | tiles.bits | CONCEALED_PUNG_BITS[concealed_pungs]
        if pung_list:
            pung_list.sort()
            out |= PUNG_BIT
            winds = dragons = 0
            for kind in pung_list:
                out |= _PUNG_BITS[kind]
                if kind >= 27:
                    if kind <= 30:
                        winds += 1
                    else:
                        dragons += 1
            out |= WIND_PUNG_BITS[winds] | DRAGON_PUNG_BITS[dragons]
        else:
            out |= NO_PUNG
        self.sets = tuple(sets)
        chows = self.chows = tuple(chow_list)
        pungs = self.pungs = tuple(pung_list)
        self.kongs = tuple(kongs)
        self.melded_kongs = melded_kongs
        concealed_kongs = self.concealed_kongs = len(kongs) - melded_kongs
        self.concealed_pungs = concealed_pungs
        # The pair of a standard hand, or of 组合龙 + set + pair; seven pairs has no 将.
        pair = self.pair = pairs[0] if pairs and (standard or form == ZU_HE_LONG) else None
        self._combos: dict[str, int] | None = None
        self._wait_fan: str | None | Literal[False] = False  # False: not asked yet
        self.roles = roles
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
            out |= (
                KONG_BIT
                | KONG_BITS[len(kongs)]
                | MELDED_KONG_BITS[melded_kongs]
                | CONCEALED_KONG_BITS[concealed_kongs]
            )
        if pair is not None:
            out |= PAIR_BIT
        if form in KNITTED_FORMS:
            out |= KNITTED_BIT
        if concealed_pungs >= 2:
            out |= CONCEALED_PUNGS
        if roles:
            out |= WAIT_ROLES
        if every:
            out |= _EVERY_BITS[every]
        self.bits = out

    @property
    def counts(self) -> list[int]:
        """How many of each kind 0-33 the hand holds (melds and winning tile included)."""
        return self.tiles.counts

    @property
    def kinds(self) -> frozenset[int]:
        return self.tiles.kinds

    @property
    def suits(self) -> frozenset[int]:
        return self.tiles.suits

    @property
    def hogs(self) -> int:
        """Kinds held four times without being a kong (四归一)."""
        return self.tiles.hogs

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
    def combos(self) -> dict[str, int]:
        """Guobiao set-combination fans of this reading (8.4), as a mapping."""
        if self._combos is None:
            self._combos = (
                set_combination_fans(self.chows, self.pungs, self.pair)[0] if self.standard else {}
            )
        return self._combos

    @property
    def wait_fan(self) -> str | None:
        if self._wait_fan is False:
            self._wait_fan = wait_fan(self)
        return self._wait_fan


def _rank_span(ranks: int) -> int:
    """Where the number tiles of an honorless hand lie (``ranks``: a mask of the ranks
    held, bit 0 for 1): "upper" (6-9), "middle" (4-6), "lower" (1-4), "simple" (2-8),
    and each range of ``predicates.ranks`` ("ranks_7_9"). Kept per mask."""
    key = ranks | len(RANK_RANGES) << 9  # a range asked for later is a new key
    found = _SPANS.get(key)
    if found is None:
        low, high = (ranks & -ranks).bit_length(), ranks.bit_length()
        found = 0
        if low >= 6:
            found |= UPPER
        if low >= 4 and high <= 6:
            found |= MIDDLE
        if high <= 4:
            found |= LOWER
        if low >= 2 and high <= 8:
            found |= SIMPLE
        for (least, most), feature in RANK_RANGES.items():
            if least <= low and high <= most:
                found |= feature
        _SPANS[key] = found
    return found


_SPANS: dict[int, int] = {}
