"""How far a hand is from each winning form.

Every form answers with a *distance*: the fewest tiles to add to the concealed tiles so
that they contain a complete hand of that form (kinds at most 4 times). A 3n+2 hand is
complete in a form at distance 0; shanten is the smallest distance minus 1. ``None``
means the form cannot apply to this hand at all (melds, or the wrong number of tiles).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import permutations
from typing import NamedTuple

from . import suit_tables
from .melds import Meld
from .shapes import (
    LV_YI_SE_LOOSE,
    QI_XING_BU_KAO,
    QUAN_BU_KAO,
    SAN_CAI_SHEN,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    YING_BA_DUI,
    ZU_HE_LONG,
)
from .suit_tables import SuitStats
from .tiles import HONORS, WHITE

GREEN_KINDS = frozenset((19, 20, 21, 23, 25, 32))  # 2s 3s 4s 6s 8s 6z
# 全不靠 / 组合龙: 147 of one suit, 258 of another, 369 of the third.
KNITTED = tuple(
    frozenset(9 * suit + start + step for suit, start in zip(order, range(3)) for step in (0, 3, 6))
    for order in permutations(range(3))
)


class View(NamedTuple):
    """The concealed tiles as the forms see them."""

    faces: tuple[int, ...]  # kinds played, wilds left out (a wenzhou 白板 plays as the wild)
    jokers: int  # wild tiles, free to stand for anything in the standard form
    wild: int | None  # the 财神 kind, if any
    size: int  # concealed tiles, wilds included
    sets: int  # sets the concealed tiles must still form
    melded: bool
    keys: list[int]  # suit_tables keys of ``faces`` (m, p, s, honors)
    sizes: list[int]  # tiles of ``faces`` per suit
    caps: suit_tables.Caps | None  # copies melds leave of each kind (suit_tables.meld_caps)


def face(kind: int, wild: int | None) -> int:
    """What a tile plays as: -1 for a wild, the wild's kind for a wenzhou 白板."""
    if wild is None:
        return kind
    if kind == wild:
        return -1
    return wild if kind == WHITE else kind


_FACES = tuple(tuple(face(kind, wild) for kind in range(34)) for wild in range(34))


def view(tiles: Sequence[int], melds: Sequence[Meld], wild: int | None = None) -> View:
    if wild is None:
        faces = tuple(tiles)
    else:
        faces_of = _FACES[wild]
        faces = tuple(f for f in map(faces_of.__getitem__, tiles) if f >= 0)
    jokers = len(tiles) - len(faces)
    return View(
        faces,
        jokers,
        wild,
        len(tiles),
        (len(tiles) - 1) // 3,
        bool(melds),
        suit_tables.keys_of(faces),
        suit_tables.sizes_of(faces),
        caps(melds, wild),
    )


def caps(melds: Iterable[Meld], wild: int | None = None) -> suit_tables.Caps | None:
    """How many copies of each kind the melds leave (None when they hold none)."""
    faces = _FACES[wild] if wild is not None else range(34)
    return suit_tables.meld_caps([faces[t] for m in melds for t in m.tiles if faces[t] >= 0])


def _stats(keys: Sequence[int]) -> tuple[SuitStats, SuitStats, SuitStats, SuitStats]:
    stats = suit_tables.stats
    return stats(0, keys[0]), stats(1, keys[1]), stats(2, keys[2]), stats(3, keys[3])


def _fourteen(v: View) -> bool:
    """Seven pairs and the orphan/knitted forms: 13 or 14 concealed tiles, no melds."""
    return not v.melded and v.size in (13, 14)


def standard(v: View, *, capped: bool = True) -> int:
    return suit_tables.standard_distance(v.keys, v.sets, v.caps if capped else None) - v.jokers


def seven_pairs(v: View) -> int | None:
    if not _fourteen(v) or v.jokers:
        return None
    m, p, s, z = _stats(v.keys)
    pairs = m.pairs + p.pairs + s.pairs + z.pairs
    odd = m.odd_kinds + p.odd_kinds + s.odd_kinds + z.odd_kinds
    return 14 - _pairs_cover(pairs, odd, 7)


def _pairs_cover(pairs: int, odd_kinds: int, wanted: int) -> int:
    """Tiles that ``wanted`` pairs can cover: whole pairs, then half of one per odd kind."""
    whole = min(pairs, wanted)
    return 2 * whole + min(wanted - whole, odd_kinds)


def thirteen_orphans(v: View) -> int | None:
    if not _fourteen(v) or v.jokers:
        return None
    m, p, s, z = _stats(v.keys)
    pair = m.yaojiu_pair or p.yaojiu_pair or s.yaojiu_pair or z.yaojiu_pair
    return 14 - (m.yaojiu + p.yaojiu + s.yaojiu + z.yaojiu) - pair


def quan_bu_kao(v: View) -> int | None:
    if not _fourteen(v) or v.jokers:
        return None
    held = set(v.faces)
    honors = len(held.intersection(HONORS))
    return 14 - max(min(14, honors + len(held & knitted)) for knitted in KNITTED)


def qi_xing_bu_kao(v: View) -> int | None:
    if not _fourteen(v) or v.jokers:
        return None
    held = set(v.faces)
    honors = len(held.intersection(HONORS))
    return 14 - honors - max(min(7, len(held & knitted)) for knitted in KNITTED)


def zu_he_long(v: View) -> int | None:
    """A knitted straight of 9 tiles + the remaining sets (one set in all) + a pair."""
    sets = v.sets - 3
    if sets < 0 or v.jokers:
        return None
    held = set(v.faces)
    best = 99
    # The straight's missing tiles bound the distance from below: try the closest first.
    for missing, knitted in sorted((len(k - held), sorted(k)) for k in KNITTED):
        if missing >= best:
            break
        rest = list(v.faces)
        for kind in knitted:
            if kind in held:
                rest.remove(kind)
        rest_keys = suit_tables.keys_of(rest)
        distance = missing + suit_tables.standard_distance(rest_keys, sets, v.caps)
        best = min(best, distance)
    return best


def lv_yi_se_loose(v: View) -> int | None:
    if not _fourteen(v) or v.jokers:
        return None
    return 14 - sum(1 for kind in v.faces if kind in GREEN_KINDS)


def ying_ba_dui(v: View) -> int | None:
    """Seven pairs + one triplet in 17 concealed tiles; wilds only at their own face."""
    if v.melded or v.size not in (16, 17):
        return None
    held = Counter(v.faces)
    if v.wild is not None:
        held[v.wild] += v.jokers
    counts = held.values()
    pairs = sum(c // 2 for c in counts)
    odd = sum(c % 2 for c in counts)
    # The triplet's kind leaves the pairs; any kind will do, held (c copies) or not.
    best = max(min(c, 3) + _pairs_cover(pairs - c // 2, odd - c % 2, 7) for c in set(counts) | {0})
    return 17 - best


def san_cai_shen(v: View) -> int | None:
    """Holding all three wilds wins whatever the rest of the hand is."""
    if v.wild is None:
        return None
    target = 3 * v.sets + 2
    kept = min(target - 3, v.size - v.jokers) + min(v.jokers, 3)
    return target - kept


def complete_in(v: View, allowed: Iterable[str]) -> bool:
    """Is the 3n+2 hand complete in an allowed form? Cheaper than the distances: the
    standard form without wilds is a table lookup per suit."""
    for name in allowed:
        if name == STANDARD and not v.jokers:
            if suit_tables.standard_complete(v.keys, v.sizes):
                return True
        elif DISTANCES[name](v) == 0:
            return True
    return False


def basic_distance(
    keys: Sequence[int],
    melds: Sequence[Meld],
    size: int,
    allowed: Collection[str],
    *,
    capped: bool = True,
) -> int:
    """The smallest distance in the default forms, no wilds, straight from suit keys:
    the hot path of shanten. ``capped=False`` ignores the copies melds hold: a lower
    bound, from the prebuilt tables, that is enough to prune before an exact wait check."""
    best = 99
    if STANDARD in allowed:
        limits = caps(melds) if melds and capped else None
        best = suit_tables.standard_distance(keys, (size - 1) // 3, limits)
    if melds or size < 13 or best == 0:
        return best
    m, p, s, z = _stats(keys)
    if SEVEN_PAIRS in allowed:
        pairs = m.pairs + p.pairs + s.pairs + z.pairs
        odd = m.odd_kinds + p.odd_kinds + s.odd_kinds + z.odd_kinds
        best = min(best, 14 - _pairs_cover(pairs, odd, 7))
    if THIRTEEN_ORPHANS in allowed:
        pair = m.yaojiu_pair or p.yaojiu_pair or s.yaojiu_pair or z.yaojiu_pair
        best = min(best, 14 - (m.yaojiu + p.yaojiu + s.yaojiu + z.yaojiu) - pair)
    return best


DISTANCES: dict[str, Callable[[View], int | None]] = {
    STANDARD: standard,
    SEVEN_PAIRS: seven_pairs,
    THIRTEEN_ORPHANS: thirteen_orphans,
    QUAN_BU_KAO: quan_bu_kao,
    QI_XING_BU_KAO: qi_xing_bu_kao,
    ZU_HE_LONG: zu_he_long,
    LV_YI_SE_LOOSE: lv_yi_se_loose,
    YING_BA_DUI: ying_ba_dui,
    SAN_CAI_SHEN: san_cai_shen,
}
