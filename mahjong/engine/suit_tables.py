"""Per-suit tables that make the standard form fast.

Shanten here is a *distance*: the fewest tiles that must be added to the hand's tiles
to contain a complete hand of ``n`` sets + a pair (each kind at most 4 times); the
hand is complete when that distance is 0, and its shanten is ``distance - 1``.
Tiles of different suits never share a set, so the distance splits by suit: for each
suit we keep its *gain vector*, the most of its tiles that ``m`` sets (``m`` <= 5, the
wenzhou maximum) and ``p`` pairs (``p`` <= 1) of that suit can cover. Combining suits is
a max-plus convolution of their vectors.

A suit's tiles are keyed by one int, base 5: the count of its ``i``-th kind times
``5**i`` (honors use the same encoding with 7 kinds and no chows). Records are built
lazily, the first time a key is seen, and kept: hands repeat suit patterns all the
time. Vectors are interned as small ints so a convolution is one dict lookup once it
has been seen.
"""

from __future__ import annotations

from typing import NamedTuple

MAX_SETS = 5
POW5 = tuple(5**i for i in range(9))
_WIDTH = 2 * (MAX_SETS + 1)  # vector index: 2 * sets + pairs


class SuitRecord(NamedTuple):
    """What every form needs to know about one suit's tiles."""

    vector: int      # interned gain-vector id (standard form)
    pairs: int       # pairs available for seven pairs (four of a kind = two pairs)
    odd_kinds: int   # kinds held an odd number of times (half a pair each)
    yaojiu: int      # distinct terminal/honor kinds held (thirteen orphans)
    yaojiu_pair: bool  # some terminal/honor kind held twice or more


_vectors: list[tuple[int, ...]] = []
_vector_ids: dict[tuple[int, ...], int] = {}
_convolutions: dict[tuple[int, int], int] = {}
_number_records: dict[int, SuitRecord] = {}
_honor_records: dict[int, SuitRecord] = {}
_cluster_vectors: dict[int, int] = {}


def _intern(vector: tuple[int, ...]) -> int:
    ident = _vector_ids.get(vector)
    if ident is None:
        ident = _vector_ids[vector] = len(_vectors)
        _vectors.append(vector)
    return ident


def decode(key: int, size: int) -> tuple[int, ...]:
    return tuple(key // POW5[i] % 5 for i in range(size))


def encode(counts) -> int:
    return sum(c * POW5[i] for i, c in enumerate(counts))


def number_record(key: int) -> SuitRecord:
    record = _number_records.get(key)
    if record is None:
        counts = decode(key, 9)
        record = _number_records[key] = _record(counts, _clusters_vector(counts), (0, 8))
    return record


def _clusters_vector(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Tiles two or more empty kinds apart never share a set, so each cluster of nearby
    tiles is solved once (clusters recur far more often than whole suits) and the
    clusters are combined like suits."""
    vector = _intern(_closed([0] * _WIDTH))
    for cluster_key in _cluster_keys(counts):
        ident = _cluster_vectors.get(cluster_key)
        if ident is None:
            ident = _cluster_vectors[cluster_key] = _intern(
                _closed(_number_vector(decode(cluster_key, 9))))
        vector = convolve(vector, ident)
    return _vectors[vector]


def _cluster_keys(counts):
    key, gap = 0, 0
    for i, held in enumerate(counts):
        if held:
            if gap >= 2 and key:
                yield key
                key = 0
            key += held * POW5[i]
            gap = 0
        else:
            gap += 1
    if key:
        yield key


def honor_record(key: int) -> SuitRecord:
    record = _honor_records.get(key)
    if record is None:
        counts = decode(key, 7)
        record = _honor_records[key] = _record(counts, _honor_vector(counts), range(7))
    return record


def record(suit: int, key: int) -> SuitRecord:
    """Suit 0-2 are m/p/s, 3 is honors (kind // 9 for kinds 0-33)."""
    return honor_record(key) if suit == 3 else number_record(key)


def _record(counts, vector, yaojiu_positions) -> SuitRecord:
    return SuitRecord(
        vector=_intern(_closed(vector)),
        pairs=sum(c // 2 for c in counts),
        odd_kinds=sum(c % 2 for c in counts),
        yaojiu=sum(1 for i in yaojiu_positions if counts[i]),
        yaojiu_pair=any(counts[i] >= 2 for i in yaojiu_positions),
    )


def _closed(vector: list[int]) -> tuple[int, ...]:
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
    covered there are min(held, asked)."""
    states = {(0, 0, 0, 0): 0}
    for i, held in enumerate(counts):
        window = max(counts[i:i + 3]) if i <= 6 else 0
        nxt: dict[tuple[int, int, int, int], int] = {}
        for (older, newer, sets, pair), covered in states.items():
            carried = older + newer
            for chows in range(0, min(window, 4 - carried) + 1):
                for pung in ((0, 1) if held else (0,)):
                    for pairs in ((0, 1) if held and not pair else (0,)):
                        asked = carried + chows + 3 * pung + 2 * pairs
                        total = sets + chows + pung
                        if asked > 4 or total > MAX_SETS:
                            continue
                        state = (newer, chows, total, pair + pairs)
                        value = covered + min(held, asked)
                        if nxt.get(state, -1) < value:
                            nxt[state] = value
        states = nxt
    vector = [0] * _WIDTH
    for (_, _, sets, pair), covered in states.items():
        i = 2 * sets + pair
        vector[i] = max(vector[i], covered)
    return vector


def _honor_vector(counts: tuple[int, ...]) -> list[int]:
    vector = [0] * _WIDTH
    for held in counts:
        if held:
            single = [0] * _WIDTH
            single[2] = min(held, 3)  # a pung
            single[1] = min(held, 2)  # the pair
            vector = list(_vectors[_convolve(_intern(_closed(vector)), _intern(_closed(single)))])
    return vector


def convolve(a: int, b: int) -> int:
    """Interned vector of two suits together."""
    ident = _convolutions.get((a, b))
    if ident is None:
        ident = _convolutions[(a, b)] = _convolve(a, b)
    return ident


def _convolve(a: int, b: int) -> int:
    va, vb = _vectors[a], _vectors[b]
    out = [0] * _WIDTH
    for ma in range(MAX_SETS + 1):
        for mb in range(MAX_SETS + 1 - ma):
            ia, ib, io = 2 * ma, 2 * mb, 2 * (ma + mb)
            out[io] = max(out[io], va[ia] + vb[ib])
            out[io + 1] = max(out[io + 1], va[ia + 1] + vb[ib], va[ia] + vb[ib + 1])
    return _intern(tuple(out))


def covered(vector: int, sets: int) -> int:
    """Most tiles ``sets`` sets and a pair can cover in the combined vector."""
    return _vectors[vector][2 * sets + 1]


def standard_distance(records, sets: int) -> int:
    """Tiles to add so the suits' tiles hold ``sets`` sets and a pair."""
    a, b, c, d = (r.vector for r in records)
    total = convolve(convolve(convolve(a, b), c), d)
    return 3 * sets + 2 - _vectors[total][2 * sets + 1]
