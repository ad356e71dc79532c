"""The bots' own hand arithmetic: shanten over tile counts, for any number of sets.

The engine's hand analysis answers exact questions about whole hands (with dead waits,
wilds and every special form); the bots ask thousands of approximate ones per decision,
about whole hands and about parts of them ("how far is the 万 part from a flush?").
So they use the classic block count: a hand needing ``k`` sets is
``2k - 2·sets - partials - pair`` exchanges from ready, with ``sets + partials <= k``,
solved per suit and cached by the suit's counts.

Counts are lists of 34 ints indexed by tile kind (``tiles.py``); -1 is a complete hand,
0 ready.

Why not the engine's exact ``hand.shanten``: it takes whole hands only (3n+1 or 3n+2 tiles), so it
cannot answer the part-of-a-hand questions of ``strong``'s targets, and it costs 33-45 us a call on
fresh wenzhou/gb/classic hands (5-35 us warm) against about 3 us here warm (measured 2026-11-30,
3,000 random hands per ruleset). A decision asks ~300 shanten questions (each discard x each
improving draw): about 10 ms per decision in shanten alone with the engine's, half the 20 ms median
target, against about 1 ms now. The two agree on whole hands apart from waits on a kind the hand
holds all four of (the engine's dead waits); with wenzhou wilds ``efficient.Analyst`` matches the
engine exactly (tested).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from ..suit_tables import SUIT_OF

NO_HAND = 99  # a target the tiles cannot reach (a chow meld in an all-pungs hand, ...)


@cache
def _blocks(counts: tuple[int, ...], honors: bool) -> tuple[tuple[int, int, int], ...]:
    """Every (sets, partials, head) a suit's tiles can be read as (pareto front)."""
    i = 0
    while i < len(counts) and counts[i] == 0:
        i += 1
    if i:
        return _blocks(counts[i:], honors)
    if not counts:
        return ((0, 0, 0),)
    found: set[tuple[int, int, int]] = set()
    c = list(counts)

    def take(removed: tuple[int, ...], sets: int, partials: int, head: int) -> None:
        rest = list(c)
        for j in removed:
            rest[j] -= 1
        for s, p, h in _blocks(tuple(rest), honors):
            if h + head <= 1:
                found.add((s + sets, p + partials, h + head))

    n = len(c)
    if c[0] >= 3:
        take((0, 0, 0), 1, 0, 0)
    if not honors and n > 2 and c[1] and c[2]:
        take((0, 1, 2), 1, 0, 0)
    if c[0] >= 2:
        take((0, 0), 0, 0, 1)
        take((0, 0), 0, 1, 0)
    if not honors:
        for gap in (1, 2):
            if gap < n and c[gap]:
                take((0, gap), 0, 1, 0)
    take((0,), 0, 0, 0)  # the tile stays isolated
    return tuple(_pareto(found))


def _pareto(options: Iterable[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    options = set(options)
    return [
        o
        for o in options
        if not any(p != o and p[0] >= o[0] and p[1] >= o[1] and p[2] >= o[2] for p in options)
    ]


_SUITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))

# Each suit's front is interned as a small int, so that combining four of them is one
# lookup on five ints rather than a hash of nested tuples: the bots ask hundreds of these
# per decision, mostly about hands not asked about before.
_fronts: list[tuple[tuple[int, int, int], ...]] = []
_front_ids: dict[tuple[tuple[int, int, int], ...], int] = {}
_suit_ids: dict[bytes, int] = {}  # a suit's counts (9 bytes, or the honours' 7): its front
_draws: dict[bytes, tuple[int, ...]] = {}  # a suit's counts: its fronts after each draw
_combined: dict[tuple[int, int, int, int, int], int] = {}
_COMBINED_MAX = 200_000  # a worker's memory stays bounded: the memo starts again


def standard_shanten(counts: Sequence[int], sets_needed: int) -> int:
    """Shanten of the standard form (``sets_needed`` sets + a pair) from these tiles."""
    tiles = bytes(counts)
    ids = _suit_ids
    try:
        key = (ids[tiles[:9]], ids[tiles[9:18]], ids[tiles[18:27]], ids[tiles[27:]], sets_needed)
    except KeyError:  # a suit not met before
        a, b, c, d = (_suit_id(tiles[low:high], honors) for low, high, honors in _SUITS)
        key = (a, b, c, d, sets_needed)
    found = _combined.get(key)
    return _remember(key) if found is None else found


def standard_after_draws(
    counts: Sequence[int], sets_needed: int, kinds: Iterable[int]
) -> list[int]:
    """``standard_shanten`` of the tiles with one more of each of ``kinds`` in turn: a
    draw changes one suit, so the other three suits' fronts are looked up once, and
    the drawn suit's from ``_drawn_ids``."""
    tiles = bytes(counts)
    suits = [tiles[low:high] for low, high, _ in _SUITS]
    base = [_suit_id(part, honors) for part, (_, _, honors) in zip(suits, _SUITS)]
    drawn: list[tuple[int, ...] | None] = [None, None, None, None]
    out = []
    for kind in kinds:
        suit = SUIT_OF[kind]
        after = drawn[suit]
        if after is None:
            after = drawn[suit] = _drawn_ids(suits[suit], suit == 3)
        ids = base.copy()
        ids[suit] = after[kind - 9 * suit]
        key = (ids[0], ids[1], ids[2], ids[3], sets_needed)
        found = _combined.get(key)
        if found is None:
            found = _remember(key)
        out.append(found)
    return out


def _drawn_ids(tiles: bytes, honors: bool) -> tuple[int, ...]:
    """The fronts of a suit's tiles with one more of each of its kinds: hands repeat
    suits all the time, so the ids are kept by the suit's counts."""
    found = _draws.get(tiles)
    if found is None:
        found = _draws[tiles] = tuple(
            _suit_id(tiles[:i] + bytes((tiles[i] + 1,)) + tiles[i + 1 :], honors)
            for i in range(len(tiles))
        )
    return found


def _remember(key: tuple[int, int, int, int, int]) -> int:
    if len(_combined) >= _COMBINED_MAX:
        _combined.clear()
    found = _combined[key] = _combine(tuple(_fronts[i] for i in key[:4]), key[4])
    return found


def _suit_id(tiles: bytes, honors: bool) -> int:
    found = _suit_ids.get(tiles)
    if found is None:
        front = _blocks(tuple(tiles), honors)
        found = _suit_ids[tiles] = _front_ids.setdefault(front, len(_fronts))
        if found == len(_fronts):
            _fronts.append(front)
    return found


def _combine(fronts: tuple[tuple[tuple[int, int, int], ...], ...], sets_needed: int) -> int:
    front = [(0, 0, 0)]
    for suit in fronts:
        merged: set[tuple[int, int, int]] = set()
        for s1, p1, h1 in front:
            for s2, p2, h2 in suit:
                if h1 and h2:
                    continue
                s = min(s1 + s2, sets_needed)
                p = min(p1 + p2, sets_needed - s)
                merged.add((s, p, h1 | h2))
        front = _pareto(merged) if len(merged) > 1 else list(merged)
    best = max(2 * s + p + h for s, p, h in front)
    return 2 * sets_needed - best


def seven_pairs_shanten(counts: Iterable[int]) -> int:
    tiles = bytes(counts)  # counted in C: this runs beside every standard shanten
    kinds = len(tiles) - tiles.count(0)
    return seven_pairs_of(kinds, kinds - tiles.count(1))


def seven_pairs_of(kinds: int, pairs: int) -> int:
    """Seven pairs' shanten of a hand holding ``kinds`` kinds, ``pairs`` of them paired."""
    return 6 - pairs + max(0, 7 - kinds)


def pungs_shanten(counts: Iterable[int], sets_needed: int, unseen: Sequence[int]) -> int:
    """Shanten of an all-pungs hand (碰碰和): the best ``sets_needed`` kinds as pungs and
    one more as the pair, where enough copies remain unseen to complete them."""
    costs = []
    for held, left in zip(counts, unseen):  # (tiles to a pung, to a pair) of each kind
        reach = held + left
        if reach >= 2:
            pung = (3 - held if held < 3 else 0) if reach >= 3 else NO_HAND
            costs.append((pung, 2 - held if held < 2 else 0))
    if len(costs) < sets_needed + 1:
        return NO_HAND
    costs.sort()
    chosen = costs[: sets_needed + 1]
    total = sum(p for p, _ in chosen)
    best = min(total - pung + pair for pung, pair in chosen)
    # a kind outside the chosen ones may serve better as the pair
    if len(costs) > sets_needed + 1:
        pung_total = sum(p for p, _ in costs[:sets_needed])
        best = min(best, pung_total + min(pair for _, pair in costs[sets_needed:]))
    return best - 1 if best < NO_HAND else NO_HAND
