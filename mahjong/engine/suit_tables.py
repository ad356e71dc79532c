"""Per-suit tables that make the standard form fast.

Shanten here is a *distance*: the fewest tiles that must be added to the hand's tiles
to contain a complete hand of ``n`` sets + a pair (each kind at most 4 times); the
hand is complete when that distance is 0, and its shanten is ``distance - 1``.
Tiles of different suits never share a set, so the distance splits by suit: for each
suit we keep its *gain vector*, the most of its tiles that ``m`` sets (``m`` <= 5, the
wenzhou maximum) and ``p`` pairs (``p`` <= 1) of that suit can cover. Combining suits is
a max-plus convolution of their vectors.

A suit's tiles are keyed by one int, base 5: the count of its ``i``-th kind times
``5**i`` (honors use the same encoding with 7 kinds and no chows). Everything is built
lazily, the first time a key is seen, and kept: hands repeat suit patterns all the
time; the vectors of every number suit of up to 14 tiles are shipped prebuilt
(suit_vectors.bin, see suit_table_build). A suit is complete when its vector covers
all its tiles, so the win check is a lookup too. A key's other facts (``SuitStats``,
for seven pairs and thirteen orphans) are kept apart. Vectors are interned as small
ints so a convolution is one dict lookup once seen.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

MAX_SETS = 5
# Per suit, None or the copies of each kind that melds leave (``meld_caps``).
Caps = tuple[tuple[int, ...] | None, ...]
# The programme's states (chows two back, chows one back, sets, pair) -> tiles covered.
States = dict[tuple[int, int, int, int], int]
POW5 = tuple(5**i for i in range(9))
SUIT_OF = tuple(kind // 9 for kind in range(34))  # 0-2 m/p/s, 3 honors
WEIGHT = tuple(POW5[kind % 9] for kind in range(34))  # a kind's unit in its suit key
WIDTH = 2 * (MAX_SETS + 1)  # vector index: 2 * sets + pairs
# Prebuilt number-suit vectors (see suit_table_build); without it all is built lazily.
TABLE_PATH = Path(__file__).with_name("suit_vectors.bin")


class SuitStats(NamedTuple):
    """Facts about one suit's tiles that need no search."""

    pairs: int  # pairs available for seven pairs (four of a kind = two pairs)
    odd_kinds: int  # kinds held an odd number of times (half a pair each)
    yaojiu: int  # distinct terminal/honor kinds held (thirteen orphans)
    yaojiu_pair: bool  # some terminal/honor kind held twice or more


_vectors: list[tuple[int, ...]] = [()]  # ids start at 1 so a found id is always truthy
_vector_ids: dict[tuple[int, ...], int] = {}
_convolutions: dict[tuple[int, int], int] = {}
_stats: tuple[dict[int, SuitStats], ...] = ({}, {}, {}, {})
_suit_vectors: tuple[dict[int, int], ...] = ({}, {}, {}, {})
_cluster_vectors: dict[tuple[int, ...], int] = {}
_capped_vectors: dict[tuple[int, int, tuple[int, ...]], int] = {}
_capped_cluster_vectors: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
# Programme states after a prefix of a suit's counts (see _number_vector).
_prefix_states: dict[tuple[int, ...], States] = {(): {(0, 0, 0, 0): 0}}


def _load_table() -> memoryview:
    """Vectors of the shipped table become ids 1..V; returns key -> id (0: not built)."""
    try:
        data = zlib.decompress(TABLE_PATH.read_bytes())
    except FileNotFoundError:
        return memoryview(array("H", bytes(2 * 5**9)))
    count = array("I", data[:4])
    index = array("H", data[4 + count[0] * WIDTH :])
    if sys.byteorder != "little":
        count.byteswap()
        index.byteswap()
    body = data[4 : 4 + count[0] * WIDTH]
    for start in range(0, len(body), WIDTH):
        _intern(tuple(body[start : start + WIDTH]))
    return memoryview(index)


def _intern(vector: tuple[int, ...]) -> int:
    ident = _vector_ids.get(vector)
    if ident is None:
        ident = _vector_ids[vector] = len(_vectors)
        _vectors.append(vector)
    return ident


_table = _load_table()


def decode(key: int, size: int) -> tuple[int, ...]:
    return tuple(key // POW5[i] % 5 for i in range(size))


def keys_of(kinds: Iterable[int]) -> list[int]:
    """The four suit keys (m, p, s, honors) of some kinds 0-33."""
    keys = [0, 0, 0, 0]
    for kind in kinds:
        keys[SUIT_OF[kind]] += WEIGHT[kind]
    return keys


def sizes_of(kinds: Iterable[int]) -> list[int]:
    """Tiles per suit (m, p, s, honors)."""
    sizes = [0, 0, 0, 0]
    for kind in kinds:
        sizes[SUIT_OF[kind]] += 1
    return sizes


# ----- cheap facts (seven pairs, thirteen orphans) --------------------------------------


def stats(suit: int, key: int) -> SuitStats:
    found = _stats[suit].get(key)
    if found is None:
        found = _stats[suit][key] = _make_stats(suit, decode(key, 7 if suit == 3 else 9))
    return found


def _make_stats(suit: int, counts: tuple[int, ...]) -> SuitStats:
    yaojiu = range(7) if suit == 3 else (0, 8)
    return SuitStats(
        pairs=sum(c // 2 for c in counts),
        odd_kinds=sum(c % 2 for c in counts),
        yaojiu=sum(1 for i in yaojiu if counts[i]),
        yaojiu_pair=any(counts[i] >= 2 for i in yaojiu),
    )


# ----- the win check --------------------------------------------------------------------


def suit_complete(suit: int, key: int, size: int) -> tuple[bool, bool]:
    """(splits into sets and at most one pair, has that pair): a suit of n tiles splits
    when its vector covers all n with n // 3 sets (and a pair if n % 3 == 2)."""
    extra = size % 3
    if extra == 1:
        return False, False
    if suit == 3:  # honors: pungs and one pair, read off the counts (no vector needed)
        pairs = 0
        while key:
            held = key % 5
            if held == 1 or held == 4:
                return False, False
            pairs += held == 2
            key //= 5
        return pairs == extra // 2, extra == 2
    return _vectors[vector(suit, key)][2 * (size // 3) + extra // 2] == size, extra == 2


def standard_complete(keys: Sequence[int], sizes: Sequence[int]) -> bool:
    """Do the suits split into sets and exactly one pair?"""
    pairs = 0
    for suit in range(4):
        splits, pair = suit_complete(suit, keys[suit], sizes[suit])
        if not splits:
            return False
        pairs += pair
    return pairs == 1


# ----- gain vectors (shanten) ----------------------------------------------------------


def vector(suit: int, key: int) -> int:
    if suit < 3 and _table[key]:
        return _table[key]
    found = _suit_vectors[suit].get(key)
    if found is None:
        if suit == 3:
            made = _intern(closed(_honor_vector(decode(key, 7))))
        else:
            made = _intern(closed(_clusters_vector(decode(key, 9))))
        found = _suit_vectors[suit][key] = made
    return found


def _clusters_vector(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Tiles two or more empty kinds apart never share a set, so each cluster of nearby
    tiles is solved once and the clusters are combined like suits."""
    vector = _intern(closed([0] * WIDTH))
    for cluster in _clusters(counts):
        vector = convolve(vector, _cluster_vector(cluster))
    return _vectors[vector]


def _cluster_vector(cluster: tuple[int, ...]) -> int:
    """A suit read from 9 down to 1 covers as much as read upwards, so a cluster and its
    mirror share one solution."""
    key = min(cluster, cluster[::-1])
    ident = _cluster_vectors.get(key)
    if ident is None:
        ident = _cluster_vectors[key] = _intern(closed(_number_vector(key)))
    return ident


def _clusters(counts: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Each cluster as a 9-kind count tuple, zero outside it."""
    cluster, gap = [0] * 9, 0
    for i, held in enumerate(counts):
        if held:
            if gap >= 2 and any(cluster):
                yield tuple(cluster)
                cluster = [0] * 9
            cluster[i] = held
            gap = 0
        else:
            gap += 1
    if any(cluster):
        yield tuple(cluster)


def closed(vector: Sequence[int]) -> tuple[int, ...]:
    """Allow fewer sets or no pair than asked: the missing ones cover nothing."""
    out = list(vector)
    for m in range(MAX_SETS + 1):
        for p in (0, 1):
            i = 2 * m + p
            if m:
                out[i] = max(out[i], out[i - 2])
            if p:
                out[i] = max(out[i], out[i - 1])
    return tuple(out)


def _number_vector(counts: tuple[int, ...]) -> list[int]:
    """Dynamic programme over the 9 kinds. State: chows started two kinds back and one
    kind back (they still need this kind), sets so far, pair so far. At each kind choose
    new chows, a pung and a pair, never asking for more than 4 copies of it; the tiles
    covered there are min(held, asked). The states after kind i depend only on the
    counts up to kind i + 2 (chows look two ahead), so they are kept by that prefix:
    suits sharing a prefix share the work."""
    known = 9
    while counts[:known] not in _prefix_states:
        known -= 1
    states = _prefix_states[counts[:known]]
    for i in range(max(known - 2, 0), 9):
        states = step(states, counts[i], max(counts[i : i + 3]) if i <= 6 else 0)
        if i <= 6:  # later prefixes are the whole suit, solved only once anyway
            _prefix_states[counts[: i + 3]] = states
    return final_vector(states)


def final_vector(states: States) -> list[int]:
    vector = [0] * WIDTH
    for (_, _, sets, pair), covered in states.items():
        i = 2 * sets + pair
        vector[i] = max(vector[i], covered)
    return vector


def step(states: States, held: int, most_chows: int, cap: int = 4) -> States:
    """The programme's move over one kind: ``cap`` copies of it may be asked for (fewer
    than 4 when melds hold some)."""
    nxt: States = {}
    pungs = (0, 1) if held else (0,)
    for (older, newer, sets, pair), covered in states.items():
        carried = older + newer
        pairs = (0, 1) if held and not pair else (0,)
        for chows in range(0, min(most_chows, 4 - carried) + 1):
            for pung in pungs:
                for new_pair in pairs:
                    asked = carried + chows + 3 * pung + 2 * new_pair
                    total = sets + chows + pung
                    if asked > cap or total > MAX_SETS:
                        continue
                    state = (newer, chows, total, pair + new_pair)
                    value = covered + (held if held < asked else asked)
                    if nxt.get(state, -1) < value:
                        nxt[state] = value
    return nxt


def _honor_vector(counts: tuple[int, ...], caps: Sequence[int] = (4,) * 7) -> list[int]:
    vector = [0] * WIDTH
    for held, cap in zip(counts, caps):
        if held:
            single = [0] * WIDTH
            single[2] = min(held, 3) if cap >= 3 else 0  # a pung
            single[1] = min(held, 2) if cap >= 2 else 0  # the pair
            vector = list(_vectors[_convolve(_intern(closed(vector)), _intern(closed(single)))])
    return vector


def capped_vector(suit: int, key: int, caps: tuple[int, ...]) -> int:
    """The vector when melds hold some copies: kind i may appear ``caps[i]`` times."""
    found = _capped_vectors.get((suit, key, caps))
    if found is None:
        counts = decode(key, len(caps))
        if suit == 3:
            made = _intern(closed(_honor_vector(counts, caps)))
        else:
            made = _capped_clusters_vector(counts, caps)
        found = _capped_vectors[(suit, key, caps)] = made
    return found


def _capped_clusters_vector(counts: tuple[int, ...], caps: tuple[int, ...]) -> int:
    """``_clusters_vector`` with caps. A set that covers none of the hand's tiles can be
    left out, so a cap binds only on kinds within two of a held tile, and clusters stay
    apart unless a capped kind between two is within two of both (a set of each may
    ask for it); a cluster that no cap binds is the uncapped one."""
    vector = _intern(closed([0] * WIDTH))
    for cluster, limits in _capped_clusters(counts, caps):
        if min(limits) == 4:
            vector = convolve(vector, _cluster_vector(cluster))
        else:
            vector = convolve(vector, _capped_cluster_vector(cluster, limits))
    return vector


def _capped_clusters(
    counts: tuple[int, ...], caps: tuple[int, ...]
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each cluster as a 9-kind count tuple, zero outside it, and the caps of the kinds
    within two of its tiles (4 elsewhere)."""
    held = [i for i, c in enumerate(counts) if c]
    groups = [[held[0]]] if held else []
    for kind in held[1:]:
        last = groups[-1][-1]
        gap = kind - last - 1
        shared = range(kind - 2, last + 3)  # the kinds between within two of both
        if gap < 2 or (gap <= 3 and min(caps[i] for i in shared) < 4):
            groups[-1].append(kind)
        else:
            groups.append([kind])
    for group in groups:
        low, high = group[0], group[-1]
        cluster = tuple(counts[i] if low <= i <= high else 0 for i in range(9))
        reach = range(low - 2, high + 3)
        yield cluster, tuple(cap if i in reach else 4 for i, cap in enumerate(caps))


def _capped_cluster_vector(cluster: tuple[int, ...], limits: tuple[int, ...]) -> int:
    """As ``_cluster_vector``: a capped cluster and its mirror share one solution."""
    key = min((cluster, limits), (cluster[::-1], limits[::-1]))
    ident = _capped_cluster_vectors.get(key)
    if ident is None:
        cluster, limits = key
        states = {(0, 0, 0, 0): 0}
        for i, held in enumerate(cluster):
            states = step(states, held, max(cluster[i : i + 3]) if i <= 6 else 0, limits[i])
        ident = _capped_cluster_vectors[key] = _intern(closed(final_vector(states)))
    return ident


def convolve(a: int, b: int) -> int:
    """Interned vector of two suits together."""
    ident = _convolutions.get((a, b))
    if ident is None:
        ident = _convolutions[(a, b)] = _convolve(a, b)
    return ident


def _convolve(a: int, b: int) -> int:
    va, vb = _vectors[a], _vectors[b]
    out = [0] * WIDTH
    # Plain comparisons, not max(): a new pair of suits costs this on every miss.
    for ma in range(MAX_SETS + 1):
        a0, a1 = va[2 * ma], va[2 * ma + 1]  # ma sets, without and with the pair
        for mb in range(MAX_SETS + 1 - ma):
            b0, b1 = vb[2 * mb], vb[2 * mb + 1]
            io = 2 * (ma + mb)
            if a0 + b0 > out[io]:
                out[io] = a0 + b0
            paired = a1 + b0 if a1 + b0 > a0 + b1 else a0 + b1
            if paired > out[io + 1]:
                out[io + 1] = paired
    return _intern(tuple(out))


def standard_distance(keys: Sequence[int], sets: int, caps: Caps | None = None) -> int:
    """Tiles to add so the suits' tiles hold ``sets`` sets and a pair. ``caps``: per
    suit, None or how many copies of each kind melds leave (see ``meld_caps``)."""
    if caps is not None:
        return _capped_distance(keys, sets, caps)
    table, honors = _table, _suit_vectors[3]
    a = table[keys[0]] or vector(0, keys[0])
    b = table[keys[1]] or vector(1, keys[1])
    ab = _convolutions.get((a, b)) or convolve(a, b)
    c = table[keys[2]] or vector(2, keys[2])
    abc = _convolutions.get((ab, c)) or convolve(ab, c)
    d = honors.get(keys[3]) or vector(3, keys[3])
    total = _convolutions.get((abc, d)) or convolve(abc, d)
    return 3 * sets + 2 - _vectors[total][2 * sets + 1]


def others(keys: Sequence[int]) -> tuple[int, int, int, int]:
    """Per suit, the vector of the other three suits together. A draw changes one suit's
    key, so the distances after each draw (``distance_with``) need one convolution each
    instead of three."""
    a, b, c, d = (vector(suit, key) for suit, key in enumerate(keys))
    ab, cd = convolve(a, b), convolve(c, d)
    return convolve(b, cd), convolve(a, cd), convolve(ab, d), convolve(ab, c)


def distance_with(rest: int, suit: int, key: int, sets: int) -> int:
    """``standard_distance`` of the keys ``others`` gave ``rest`` for, with ``suit``'s
    key now ``key`` (the convolution's order does not change its values)."""
    return 3 * sets + 2 - _vectors[convolve(rest, vector(suit, key))][2 * sets + 1]


def _capped_distance(keys: Sequence[int], sets: int, caps: Caps) -> int:
    ids = [
        vector(suit, key) if cap is None else capped_vector(suit, key, cap)
        for suit, (key, cap) in enumerate(zip(keys, caps))
    ]
    total = convolve(convolve(convolve(ids[0], ids[1]), ids[2]), ids[3])
    return 3 * sets + 2 - _vectors[total][2 * sets + 1]


def meld_caps(kinds: Collection[int]) -> Caps | None:
    """Per suit, None or the copies of each kind left by melds holding ``kinds``."""
    if not kinds:
        return None
    caps = [[4] * 9, [4] * 9, [4] * 9, [4] * 7]
    for kind in kinds:
        caps[SUIT_OF[kind]][kind % 9] -= 1
    return tuple(tuple(c) if min(c) < 4 else None for c in caps)
