"""Fan scoring for every ruleset (RULES.md 3.8, 3.14 and sections 4-9).

``score_win(ruleset, ctx)`` scores a win; ``known_fan_keys(ruleset)`` lists the fan
keys an operator may override (``rulesets.derive`` checks ``fan_values`` with it).
"not a winning hand" and "below the minimum fan" are values of the result; malformed
input raises ``EngineError``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from .. import hand
from ..errors import InvalidAction
from ..shapes import Decomposition, RulesetLike, WinContext
from ..tiles import WHITE, format_tile, max_copies
from . import classic, gb, quesheng, tiao72, wenzhou
from .facts import FIELD, TileFacts
from .pipeline import NOT_A_WIN, FanScore, ScoreResult, best_reading, fan_scores
from .table import Fan, FanTable

# stage scores with the classic table (RULES.md 5.1); its hand score is settlement's.
STAGE = FanTable("stage", classic.TABLE.fans, fallback=classic.TABLE.fallback)
TABLES: dict[str, FanTable] = {
    t.slug: t for t in (classic.TABLE, STAGE, quesheng.TABLE, tiao72.TABLE, gb.TABLE, wenzhou.TABLE)
}


def table_for(ruleset: RulesetLike) -> FanTable:
    try:
        return TABLES[ruleset.slug]
    except KeyError:
        raise InvalidAction(f"no fan table for ruleset {ruleset.slug!r}") from None


def known_fan_keys(ruleset: RulesetLike) -> set[str]:
    table = TABLES.get(ruleset.slug)
    return table.keys() if table else set()


def score_win(ruleset: RulesetLike, ctx: WinContext) -> ScoreResult:
    """Score the win described by ``ctx`` under ``ruleset``."""
    # Without wilds, what the tiles alone say is read once, for the checks and the fans.
    tiles = TileFacts.of_hand(ctx) if ctx.wild is None else None
    check_tiles(ruleset, ctx, tiles)
    # The readings without the wait list: whether the hand had one winning kind is asked
    # only if an edge, closed or single wait could score.
    decomps = hand.readings(ctx.hand, ctx.melds, ctx.win, ruleset, tsumo=ctx.tsumo, wild=ctx.wild)
    return score_decompositions(
        ruleset,
        ctx,
        decomps,
        lambda: hand.has_one_winning_kind(ctx.hand, ctx.melds, ctx.win, ruleset, ctx.wild, decomps),
        tiles,
    )


def score_decompositions(
    ruleset: RulesetLike,
    ctx: WinContext,
    decomps: Sequence[Decomposition],
    one_winning_kind: Callable[[], bool] = lambda: False,
    tiles: TileFacts | None = None,
) -> ScoreResult:
    """Score given readings (``score_win`` without hand analysis; tests use it).
    ``tiles``: ``TileFacts.of_hand(ctx)``, if at hand."""
    table = table_for(ruleset)
    values = table.value_of(ruleset.fan_values)
    reading = best_reading(
        table, ctx, decomps, one_winning_kind, values, ruleset.options, ruleset.cap, tiles
    )
    if reading is None:
        return NOT_A_WIN
    fans = fan_scores(reading, values)
    if reading.multiplicative:
        raw = reading.total(values)
        flowers = 0
    else:
        raw = flowers = 0
        for (fan, _), score in zip(reading.fans, fans):
            raw += score.fan * score.count
            if fan.flower:
                flowers += score.fan * score.count
    total = min(raw, ruleset.cap) if ruleset.cap else raw
    doubling = guo_doubling(ruleset, ctx.passes)
    total *= doubling
    multiplicative = table.multiplicative
    return ScoreResult.of(
        is_win=True,
        total=total,
        fans=fans,
        decomposition=reading.decomposition,
        below_minimum=not multiplicative and raw - flowers < ruleset.min_fan,
        raw_total=raw,
        yakuman=tuple(s.key for s in fans) if reading.yakuman else (),
        soft=any(s.key == "ruan_pai" for s in fans) if multiplicative else None,
        multiplier=total if multiplicative else None,
        doubling=doubling,
    )


def cap_cut(ruleset: RulesetLike, fans: Iterable[tuple[int, int]]) -> int | None:
    """The ruleset's cap where it cut a win short, else None: ``fans`` are the win's
    (fan, count) pairs, summed (classic's 13 fan) or multiplied (温州's ×8) as the
    ruleset counts them, before any 过胡 doubling."""
    if not ruleset.cap:
        return None
    if table_for(ruleset).multiplicative:
        raw = 1
        for fan, count in fans:
            raw *= fan**count
    else:
        raw = sum(fan * count for fan, count in fans)
    return ruleset.cap if raw > ruleset.cap else None


def wild_reading(
    decomposition: Decomposition | None, ctx: WinContext
) -> list[list[tuple[int, bool]]]:
    """The winning reading block by block, each tile as (kind, played by a 财神): a block
    shows the kind a wild stands for (3p where the hand held the wild), which unmarked
    would read as a tile the player never had. A 白板 is an ordinary tile of the wild's
    kind (RULES.md 9.2.4), and a wild at its own face plays no other tile."""
    if decomposition is None:
        return []
    wild = ctx.wild
    held = (*ctx.hand, ctx.win, *(kind for meld in ctx.melds for kind in meld.tiles))
    played = Counter(
        wild if kind == WHITE and wild not in (None, WHITE) else kind
        for kind in held
        if kind != wild
    )
    blocks: list[list[tuple[int, bool]]] = []
    for block in decomposition.blocks:
        row: list[tuple[int, bool]] = []
        for kind in block.tiles:
            plain = played[kind] > 0
            played[kind] -= plain
            row.append((kind, not plain))
        blocks.append(row)
    return blocks


def white_stands_in(kind: int, by_wild: bool, wild: int | None) -> bool:
    """In a wild_reading, a tile of the wild's kind that no 财神 plays is a 白板 (every real
    tile of that kind is a wild): the hand held a 白板 there, which the reading shows as
    the kind it plays (RULES.md 9.2.4)."""
    return not by_wild and wild not in (None, WHITE) and kind == wild


def guo_doubling(ruleset: RulesetLike, passes: int) -> int:
    """quesheng's 过胡加倍 (RULES.md 6.2): each passed win doubles the fan, up to
    ``max_guo`` passes; 1 where the ruleset has none."""
    return 1 << min(passes, ruleset.max_guo) if ruleset.guo_hu else 1


def check_tiles(ruleset: RulesetLike, ctx: WinContext, tiles: TileFacts | None = None) -> None:
    """Refuse impossible input: wrong tile count, a fifth copy, a tile not in the set.
    ``tiles`` (the hand's ``TileFacts``, if at hand) answer "all fine?" from their
    suit counts; the tiles are counted one by one only to name what is wrong."""
    size = len(ctx.hand) + 3 * len(ctx.melds)
    if size != ruleset.hand_size:
        raise InvalidAction(
            f"hand and melds make {size} tiles before the win; "
            f"{ruleset.slug} needs {ruleset.hand_size}"
        )
    if tiles is not None:
        m, p, s, z, flowers = tiles.keys
        kinds = ruleset.kinds
        fits = _SUIT_LIMITS.get(id(kinds))
        if fits is None or fits[4] is not kinds:
            fits = _suit_limits(kinds)
        if not (
            flowers  # flowers in a hand: named below
            or (m + _OVER_FOUR | p + _OVER_FOUR | s + _OVER_FOUR | z + _OVER_FOUR) & _FIFTH
            or m & fits[0]
            or p & fits[1]
            or s & fits[2]
            or z & fits[3]
        ):
            return
    limits = _copy_limits(ruleset.kinds)  # 0 for a kind not in the set
    counts = [0] * 42
    fine = True
    for group in (ctx.hand, (ctx.win,), *(m.tiles for m in ctx.melds)):
        for kind in group:
            counts[kind] += 1
            if counts[kind] > limits[kind]:
                fine = False
    if fine:
        return
    allowed = _kind_set(ruleset.kinds)  # name the first wrong kind, in kind order
    for kind, n in enumerate(counts):
        if not n:
            continue
        if kind not in allowed:
            raise InvalidAction(f"{format_tile(kind)} is not in the {ruleset.slug} tile set")
        if n > max_copies(kind):
            raise InvalidAction(
                f"{n} copies of {format_tile(kind)} in hand, win and melds: "
                f"a set has only {max_copies(kind)}"
            )


# Suit counts hold 5 bits a kind (facts.FIELD): adding 11 to each sets a field's top
# bit exactly where the count is 5 or more. Only gb-style sets of 4 copies a kind use
# the counts (flowers are never in a hand); anything else is counted one by one.
_OVER_FOUR = sum(11 << FIELD * i for i in range(9))
_FIFTH = sum(16 << FIELD * i for i in range(9))
# Per suit (m, p, s, honors) the fields of the kinds not in the set, then the kinds.
_SuitLimits = tuple[int, int, int, int, tuple[int, ...]]


def _suit_limits(kinds: tuple[int, ...]) -> _SuitLimits:
    """Per suit, the fields of the kinds not in the set (a count in them is wrong), and
    the kinds themselves (kept by their id: hashing the tuple costs more than the check;
    held here, the tuple keeps its id)."""
    out = [0, 0, 0, 0]
    for kind in kinds:
        if kind < 34:
            out[kind // 9] |= 31 << FIELD * (kind % 9)
    if len(_SUIT_LIMITS) >= 1024:  # rulesets made one by one stay bounded
        _SUIT_LIMITS.clear()
    found = _SUIT_LIMITS[id(kinds)] = (~out[0], ~out[1], ~out[2], ~out[3], kinds)
    return found


_SUIT_LIMITS: dict[int, _SuitLimits] = {}


@lru_cache(maxsize=64)
def _kind_set(kinds: tuple[int, ...]) -> frozenset[int]:
    return frozenset(kinds)


@lru_cache(maxsize=64)
def _copy_limits(kinds: tuple[int, ...]) -> tuple[int, ...]:
    allowed = frozenset(kinds)
    return tuple(max_copies(kind) if kind in allowed else 0 for kind in range(42))


__all__ = [
    "Fan",
    "FanScore",
    "FanTable",
    "ScoreResult",
    "TABLES",
    "cap_cut",
    "guo_doubling",
    "known_fan_keys",
    "score_decompositions",
    "score_win",
    "table_for",
    "white_stands_in",
    "wild_reading",
]
