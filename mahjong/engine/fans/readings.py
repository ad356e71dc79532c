"""The readings of a winning hand for scoring, and the one-winning-kind test of 3.8.6.

``hand.decompose`` also works out the hand's full wait list for every call, which costs
far more than the readings themselves; scoring needs that fact only for a hand whose
winning tile can sit in an edge, closed or pair position, so it is asked lazily here
(``has_one_winning_kind``) and the readings come from hand analysis's own enumeration.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

from .. import hand, suit_tables
from ..hand_forms import face
from ..shapes import CHOW, PUNG, SEVEN_PAIRS, STANDARD, Decomposition, WinContext
from ..tiles import YAOJIU


def readings_of(ruleset, ctx: WinContext) -> list[Decomposition]:
    tiles = [*ctx.hand, ctx.win]
    melds = list(ctx.melds)
    meld_blocks = tuple(hand._meld_block(m, ctx.wild) for m in melds)
    win_face = face(ctx.win, ctx.wild)
    out: list[Decomposition] = []
    for form, reading in hand._readings(tiles, melds, ruleset.forms, ctx.wild, ctx.tsumo):
        # one_kind=True: the edge/closed/pair labels are not read by the scorer, which
        # decides the wait fans itself (predicates.wait_fan).
        out.extend(hand._placements(form, reading, meld_blocks, win_face, ctx.tsumo, True,
                                    ctx.wild))
    return out


def has_one_winning_kind(ruleset, ctx: WinContext, decomps) -> bool:
    """Does exactly one live kind complete the hand before the win? The winning kind
    does; any other kind that completes it settles the question. Most hands show one in
    their readings (the other side of a two-sided wait, the other pair of a double-pair
    wait); otherwise the kinds near the hand's tiles are tried. Dead kinds (four held)
    never count (3.15.1)."""
    held = Counter(ctx.hand)
    for meld in ctx.melds:
        held.update(meld.tiles)
    if any(held[kind] < 4 for kind in _other_winning_kinds(ctx.win, decomps)):
        return False
    special = ctx.wild is not None or _special_shaped(ctx.hand)
    completes = _any_form(ruleset, ctx) if special else _sets_or_pairs(ruleset, ctx)
    return not any(completes(kind) for kind in _candidates(ruleset, ctx, special)
                   if kind != ctx.win and held[kind] < 4)


def _any_form(ruleset, ctx: WinContext):
    """Completion in any of the ruleset's forms (special shapes, wilds): the win check."""
    def completes(kind: int) -> bool:
        return hand.is_win([*ctx.hand, kind], ctx.melds, ruleset, ctx.wild)
    return completes


def _sets_or_pairs(ruleset, ctx: WinContext):
    """Away from the special shapes only sets + a pair, or seven pairs, can complete
    the hand. Adding a kind changes one suit, so with hand analysis's per-suit tables a
    check is one lookup: that suit must split with the kind added, the others as they
    are, with one pair in all."""
    keys, sizes = suit_tables.keys_of(ctx.hand), suit_tables.sizes_of(ctx.hand)
    suits = [suit_tables.suit_complete(s, keys[s], sizes[s]) for s in range(4)]
    pairs_wait = _seven_pairs_wait(ruleset, ctx)

    def completes(kind: int) -> bool:
        if kind == pairs_wait:
            return True
        suit = suit_tables.SUIT_OF[kind]
        splits, pair = suit_tables.suit_complete(suit, keys[suit] + suit_tables.WEIGHT[kind],
                                                 sizes[suit] + 1)
        others = [suits[s] for s in range(4) if s != suit]
        return (splits and all(other_splits for other_splits, _ in others)
                and pair + sum(other_pair for _, other_pair in others) == 1)
    return completes


def _seven_pairs_wait(ruleset, ctx: WinContext) -> int | None:
    """The kind that makes 13 concealed tiles seven pairs (four alike are two), if any."""
    if ctx.melds or SEVEN_PAIRS not in ruleset.forms:
        return None
    counts = Counter(ctx.hand)
    odd = [kind for kind, n in counts.items() if n % 2]
    return odd[0] if len(odd) == 1 and sum(n // 2 for n in counts.values()) == 6 else None


def _other_winning_kinds(win: int, decomps):
    """Kinds that visibly complete the same hand: a chow won at one end is also won at
    the other end, a pung won from a pair is also won on the other pair."""
    for d in decomps:
        if d.win_block is None or d.form != STANDARD:
            continue
        block = d.blocks[d.win_block]
        if block.meld is not None or block.wilds:
            continue
        if block.shape == CHOW:
            low = block.tiles[0]
            if win == low and low % 9 <= 5:
                yield low + 3
            elif win == low + 2 and low % 9 >= 1:
                yield low - 1
        elif block.shape == PUNG and d.pair is not None:
            yield d.pair.tiles[0]


def _candidates(ruleset, ctx: WinContext, special: bool) -> list[int]:
    """Kinds that could complete the hand: within two of a concealed number tile, a
    concealed honor, or, for a concealed hand that may be a special form (十三幺, 不靠),
    every kind. Nearest to the winning tile first."""
    kinds = ruleset.kinds
    if special:
        near = set(kinds)
    else:
        near = set()
        for kind in ctx.hand:
            if kind < 27:
                low = kind - kind % 9
                near.update(range(max(low, kind - 2), min(low + 8, kind + 2) + 1))
            else:
                near.add(kind)
    return sorted((k for k in kinds if k in near), key=lambda k: abs(k - ctx.win))


# The six knitted patterns: 147, 258 and 369 spread over the three suits.
KNITTED = tuple(frozenset(suit * 9 + rank for suit, start in zip(range(3), starts)
                          for rank in range(start, 9, 3))
                for starts in permutations(range(3)))


def _special_shaped(tiles) -> bool:
    """Could one more tile complete a special form? 十三幺 needs twelve distinct
    terminals and honors, 组合龙 eight of a knitted pattern, 全不靠 / 七星不靠 thirteen
    singles whose numbers fit one pattern."""
    distinct = set(tiles)
    if sum(1 for k in distinct if k in YAOJIU) >= 12:
        return True
    numbers = {k for k in distinct if k < 27}
    for pattern in KNITTED:
        if len(numbers & pattern) >= 8 or (len(tiles) == 13 and len(distinct) == 13
                                           and numbers <= pattern):
            return True
    return False
