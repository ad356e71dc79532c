"""Every reading of complete concealed tiles in each winning form.

A reading is a sorted tuple of *parts*: ``(shape, tiles, jokers)`` where ``tiles`` are
the kinds played and ``jokers`` the kinds among them that wild tiles stand for. The
caller turns parts into ``shapes.Block`` values and finds the winning tile's block.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations_with_replacement, product
from typing import cast

from . import scoring_tables
from .hand_forms import GREEN_KINDS, KNITTED
from .shapes import CHOW, PAIR, PUNG, SINGLES
from .shapes import KNITTED as KNITTED_SHAPE
from .tiles import YAOJIU

Part = tuple[str, tuple[int, ...], tuple[int, ...]]  # (shape, tiles, jokers)
Reading = tuple[Part, ...]  # sorted parts
# A number suit's split as (shape, offset in the suit) parts, in the order of their parts.
Split = tuple[tuple[str, int], ...]


def counts_of(faces: Iterable[int]) -> list[int]:
    counts = [0] * 34
    for kind in faces:
        counts[kind] += 1
    return counts


def standard(counts: list[int], jokers: int, sets: int, wild: int | None) -> set[Reading]:
    """Readings as ``sets`` sets + one pair. Wilds fill any gap; wilds left over play
    as their own face (财神归位): two make a pair, three a pung."""
    out: set[Reading] = set()
    _search(list(counts), jokers, sets, True, 0, [], wild, out)
    return out


def standard_splits(keys: Sequence[int], sizes: Sequence[int]) -> list[Reading]:
    """The readings (sorted parts) of suits given by their keys and sizes as sets + one
    pair, in sorted order: the product of each suit's splits, exactly one suit (the one
    whose size is 2 more than a multiple of 3) holding the pair."""
    pair_suits = 0
    found: list[tuple[Reading, ...]] = []
    parts: list[Part] | None = []  # while every suit splits one way, the one reading's parts
    for suit in (0, 1, 2, 3):
        size = sizes[suit]
        if not size:
            continue
        extra = size % 3
        if extra == 1:
            return []
        if extra:
            pair_suits += 1
        splits = _SPLITS[suit].get(keys[suit])
        if splits is None:
            splits = suit_splits(suit, keys[suit])
        if not splits:
            return []
        found.append(splits)
        if parts is not None:
            if len(splits) == 1:
                parts += splits[0]
            else:
                parts = None
    if pair_suits != 1:
        return []
    if parts is not None:
        parts.sort()
        return [tuple(parts)]
    return sorted({tuple(sorted(p for part in choice for p in part)) for choice in product(*found)})


def suit_splits(suit: int, key: int) -> tuple[Reading, ...]:
    """Every way to split one suit's tiles (a suit key, as ``suit_tables``) into sets
    and, if its size is 2 more than a multiple of 3, one pair; ``()`` if none. Kept per
    key: suits repeat from hand to hand far more than whole hands do. A number suit of
    up to 14 tiles is read from ``_number_splits`` (every such split, listed once)."""
    found = _SPLITS[suit].get(key)
    if found is None and suit < 3:
        shapes = _number_splits().get(key)
        if shapes is not None:
            parts = _PARTS_OF[suit]
            found = _SPLITS[suit][key] = tuple(
                tuple(parts[shape][offset] for shape, offset in split) for split in shapes
            )
    if found is None:
        counts = [0] * 34
        base, width = 9 * suit, 7 if suit == 3 else 9
        size, rest = 0, key
        for i in range(width):
            counts[base + i] = rest % 5
            size += rest % 5
            rest //= 5
        if suit < 3 and size <= 14:  # not in the table: no split
            found = ()
        else:
            out: set[Reading] = set()
            if size % 3 != 1:
                _plain(counts, base, size // 3, size % 3 == 2, [], out)
            found = tuple(sorted(out))
        _SPLITS[suit][key] = found
    return found


def _number_splits() -> dict[int, tuple[Split, ...]]:
    """Number-suit key -> its splits into at most 4 sets and a pair, as ``(shape,
    offset)`` parts in the order of the parts they stand for: some 22,000 keys, read
    once from the shipped tables (``scoring_tables``), built where they are missing."""
    if not _NUMBER_SPLITS:
        shipped = scoring_tables.load("splits")
        _NUMBER_SPLITS.update(build_number_splits() if shipped is None else shipped)
    return _NUMBER_SPLITS


def build_number_splits() -> dict[int, tuple[Split, ...]]:
    """``_number_splits``' table, built (about 0.2 s)."""
    kinds = [(CHOW, i) for i in range(7)] + [(PUNG, i) for i in range(9)]
    found: dict[int, set[Split]] = {}
    for sets in range(5):
        for chosen in combinations_with_replacement(kinds, sets):
            counts = [0] * 9
            for shape, i in chosen:
                if shape == CHOW:
                    counts[i] += 1
                    counts[i + 1] += 1
                    counts[i + 2] += 1
                else:
                    counts[i] += 3
            for pair in (None, *range(9)):
                held = list(counts)
                parts = list(chosen)
                if pair is not None:
                    held[pair] += 2
                    parts.append((PAIR, pair))
                if max(held) > 4:
                    continue
                key = sum(n * 5**i for i, n in enumerate(held))
                found.setdefault(key, set()).add(tuple(sorted(parts)))
    return {key: tuple(sorted(splits)) for key, splits in found.items()}


_NUMBER_SPLITS: dict[int, tuple[Split, ...]] = {}


def number_suit_completing() -> dict[int, tuple[tuple[int, bool], ...]]:
    """Number-suit key of up to 13 tiles -> each offset (in order) whose tile makes it
    split, with whether the split then holds the pair; keys without one are absent.
    Read once from the shipped tables (``scoring_tables``), built where they are
    missing."""
    if not _NUMBER_COMPLETING:
        shipped = scoring_tables.load("completing")
        if shipped is None:
            shipped = build_number_suit_completing(_number_splits())
        _NUMBER_COMPLETING.update(shipped)
    return _NUMBER_COMPLETING


def build_number_suit_completing(
    splits: dict[int, tuple[Split, ...]],
) -> dict[int, tuple[tuple[int, bool], ...]]:
    """``number_suit_completing``' table, read off the table of splits (about 0.3 s):
    taking any tile from a key that splits gives a key that one tile completes."""
    found: dict[int, set[tuple[int, bool]]] = {}
    for key, shapes in splits.items():
        pair = any(shape == PAIR for shape, _ in shapes[0])
        for offset in (
            {offset for shape, offset in shapes[0]}
            | {offset + 1 for shape, offset in shapes[0] if shape == CHOW}
            | {offset + 2 for shape, offset in shapes[0] if shape == CHOW}
        ):
            found.setdefault(key - _POW5[offset], set()).add((offset, pair))
    return {key: tuple(sorted(kinds)) for key, kinds in found.items()}


_NUMBER_COMPLETING: dict[int, tuple[tuple[int, bool], ...]] = {}
_POW5 = tuple(5**i for i in range(9))


def number_suit_splits(size: int) -> dict[int, tuple[Split, ...]] | None:
    """The number-suit keys that split, with their splits, where the table holds every
    key of ``size`` tiles (up to 14); None above."""
    return _number_splits() if size <= 14 else None


_SPLITS: tuple[dict[int, tuple[Reading, ...]], ...] = (
    {0: ((),)},
    {0: ((),)},
    {0: ((),)},
    {0: ((),)},
)
SUIT_OF = tuple(kind // 9 for kind in range(34))
WEIGHT = tuple(5 ** (kind % 9) for kind in range(34))


def _plain(
    counts: list[int], kind: int, sets: int, pair: bool, parts: list[Part], out: set[Reading]
) -> None:
    while kind < 34 and not counts[kind]:
        kind += 1
    if kind == 34:
        if not sets and not pair:
            out.add(tuple(sorted(parts)))
        return
    held = counts[kind]
    if pair and held >= 2:
        counts[kind] = held - 2
        parts.append(PAIR_PARTS[kind])
        _plain(counts, kind, sets, False, parts, out)
        parts.pop()
        counts[kind] = held
    if not sets:
        return
    if held >= 3:
        counts[kind] = held - 3
        parts.append(PUNG_PARTS[kind])
        _plain(counts, kind, sets - 1, pair, parts, out)
        parts.pop()
        counts[kind] = held
    if kind < 27 and kind % 9 <= 6 and counts[kind + 1] and counts[kind + 2]:
        counts[kind] -= 1
        counts[kind + 1] -= 1
        counts[kind + 2] -= 1
        parts.append(CHOW_PARTS[kind])
        _plain(counts, kind, sets - 1, pair, parts, out)
        parts.pop()
        counts[kind] += 1
        counts[kind + 1] += 1
        counts[kind + 2] += 1


PAIR_PARTS = tuple((PAIR, (k, k), ()) for k in range(34))
PUNG_PARTS = tuple((PUNG, (k, k, k), ()) for k in range(34))
CHOW_PARTS = tuple((CHOW, (k, k + 1, k + 2), ()) for k in range(34))
# Per number suit: shape -> offset in the suit -> part.
_PARTS_OF = tuple(
    {
        shape: parts[9 * suit : 9 * suit + 9]
        for shape, parts in ((PAIR, PAIR_PARTS), (PUNG, PUNG_PARTS), (CHOW, CHOW_PARTS))
    }
    for suit in range(3)
)


def _search(
    counts: list[int],
    jokers: int,
    sets: int,
    pair: int,
    start: int,
    parts: list[Part],
    wild: int | None,
    out: set[Reading],
) -> None:
    kind = next((k for k in range(start, 34) if counts[k]), None)
    if kind is None:
        if jokers == 3 * sets + 2 * pair:
            wild = cast(int, wild)  # wilds are left over only where there is a wild kind
            own: list[Part] = [(PAIR, (wild,) * 2, (wild,) * 2)] * pair + [
                (PUNG, (wild,) * 3, (wild,) * 3)
            ] * sets
            out.add(tuple(sorted(parts + own)))
        return
    for shape, group, sets_used, pair_used in _groups(kind, sets, pair):
        for concrete, filled in _fillings(group, kind, counts, jokers):
            for k in concrete:
                counts[k] -= 1
            parts.append((shape, group, filled))
            _search(
                counts,
                jokers - len(filled),
                sets - sets_used,
                pair - pair_used,
                kind,
                parts,
                wild,
                out,
            )
            parts.pop()
            for k in concrete:
                counts[k] += 1


def _groups(kind: int, sets: int, pair: int) -> Iterator[tuple[str, tuple[int, ...], int, int]]:
    """Shapes that can hold ``kind``, the smallest tile left (so lower kinds of a chow
    can only be wilds)."""
    if pair:
        yield PAIR, (kind, kind), 0, 1
    if sets:
        yield PUNG, (kind, kind, kind), 1, 0
        if kind < 27:
            number = kind % 9
            for low in range(kind - min(number, 2), kind + 1):
                if low % 9 <= 6:
                    yield CHOW, (low, low + 1, low + 2), 1, 0


def _fillings(
    group: tuple[int, ...], kind: int, counts: list[int], jokers: int
) -> Iterator[tuple[list[int], tuple[int, ...]]]:
    """Ways to take ``group`` from the tiles: one copy of ``kind`` must be a real tile
    (it is the smallest left); any other slot is a real tile or a wild."""
    options: list[tuple[list[int], list[int]]] = [([], [])]
    anchored = False
    for slot in group:
        nxt: list[tuple[list[int], list[int]]] = []
        for concrete, filled in options:
            if slot == kind and not anchored:
                nxt.append((concrete + [slot], filled))
                continue
            if slot >= kind and counts[slot] > concrete.count(slot):
                nxt.append((concrete + [slot], filled))
            if len(filled) < jokers:
                nxt.append((concrete, filled + [slot]))
        options = nxt
        anchored = anchored or slot == kind
    seen: set[tuple[int, ...]] = set()
    for concrete, filled in options:
        key = tuple(filled)
        if key not in seen:
            seen.add(key)
            yield concrete, key


def seven_pairs(counts: list[int]) -> set[Reading]:
    if sum(counts) != 14 or any(c % 2 for c in counts):
        return set()
    parts = [(PAIR, (k, k), ()) for k in range(34) for _ in range(counts[k] // 2)]
    return {tuple(parts)}


def thirteen_orphans(counts: list[int]) -> set[Reading]:
    if sum(counts) != 14 or any(not counts[k] for k in YAOJIU):
        return set()
    doubled = [k for k in YAOJIU if counts[k] == 2]
    if len(doubled) != 1:
        return set()
    singles = tuple(k for k in sorted(YAOJIU) if k != doubled[0])
    return {((PAIR, (doubled[0],) * 2, ()), (SINGLES, singles, ()))}


def knitted_singles(counts: list[int], honors_needed: int) -> set[Reading]:
    """全不靠 (``honors_needed`` 0: any honors) or 七星不靠 (all 7): 14 different tiles,
    the number tiles all from one knitted pattern."""
    held = [k for k in range(34) if counts[k]]
    if sum(counts) != 14 or len(held) != 14:
        return set()
    numbers = tuple(k for k in held if k < 27)
    honors = tuple(k for k in held if k >= 27)
    if len(honors) < honors_needed or not any(set(numbers) <= k for k in KNITTED):
        return set()
    return {((KNITTED_SHAPE, numbers, ()), (SINGLES, honors, ()))}


def zu_he_long(counts: list[int], sets: int) -> set[Reading]:
    """A full knitted straight (9 tiles) + ``sets`` - 3 sets + a pair."""
    out: set[Reading] = set()
    if sets < 3 or counts[:27].count(0) > 18:  # fewer than 9 number kinds held
        return out
    held = counts.__getitem__
    keys: list[int] | None = None
    sizes: list[int] | None = None
    for knitted, knitted_keys in zip(_KNITTED_SORTED, _KNITTED_KEYS):
        if not all(map(held, knitted)):
            continue
        if keys is None or sizes is None:  # both None until the first straight held
            keys, sizes = _keys_and_sizes(counts)
        rest = [
            keys[0] - knitted_keys[0],
            keys[1] - knitted_keys[1],
            keys[2] - knitted_keys[2],
            keys[3],
        ]
        rest_sizes = [sizes[0] - 3, sizes[1] - 3, sizes[2] - 3, sizes[3]]
        if sum(rest_sizes) != 3 * (sets - 3) + 2:
            continue
        straight = (KNITTED_SHAPE, knitted, ())
        out.update(tuple(sorted((straight,) + r)) for r in standard_splits(rest, rest_sizes))
    return out


def _keys_and_sizes(counts: list[int]) -> tuple[list[int], list[int]]:
    keys, sizes = [0, 0, 0, 0], [0, 0, 0, 0]
    for kind in range(34):
        held = counts[kind]
        if held:
            keys[SUIT_OF[kind]] += held * WEIGHT[kind]
            sizes[SUIT_OF[kind]] += held
    return keys, sizes


_KNITTED_SORTED = tuple(tuple(sorted(knitted)) for knitted in KNITTED)
# Each knitted straight's suit keys (three kinds in each number suit).
_KNITTED_KEYS = tuple(
    tuple(sum(5 ** (k % 9) for k in knitted if k // 9 == suit) for suit in range(3))
    for knitted in _KNITTED_SORTED
)


def lv_yi_se_loose(counts: list[int]) -> set[Reading]:
    held = [k for k in range(34) for _ in range(counts[k])]
    if len(held) != 14 or any(k not in GREEN_KINDS for k in held):
        return set()
    return {((SINGLES, tuple(held), ()),)}


def ying_ba_dui(counts: list[int]) -> set[Reading]:
    """Seven pairs + one triplet in 17 tiles (four of a kind is two pairs)."""
    odd = [k for k in range(34) if counts[k] % 2]
    if sum(counts) != 17 or len(odd) != 1 or counts[odd[0]] != 3:
        return set()
    parts: list[Part] = [
        (PAIR, (k, k), ()) for k in range(34) for _ in range(counts[k] // 2) if k != odd[0]
    ]
    parts.append((PUNG, (odd[0],) * 3, ()))
    return {tuple(sorted(parts))}


def san_cai_shen(counts: list[int], jokers: int, wild: int) -> set[Reading]:
    if jokers != 3:
        return set()
    rest = tuple(k for k in range(34) for _ in range(counts[k]))
    return {((SINGLES, (wild,) * 3, (wild,) * 3), (SINGLES, rest, ()))}
