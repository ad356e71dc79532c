"""Memoised hand analysis for the state machine.

Between two of a player's discards their concealed hand does not change, yet every
draw, every opponent discard and every ``legal_actions`` call asks the same questions
(what does it wait on? which discards leave it ready?). Caching the answers per hand
keeps random self-play fast. The cache key holds everything the answer depends on;
rulesets are not hashable (they carry mappings), so they are keyed by identity and kept
alive in the value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from . import hand as hand_analysis
from .melds import Meld
from .rulesets import Ruleset

_MAX_ENTRIES = 50_000  # a few MB; hits matter within a hand, not across hands
_cache: dict[tuple[object, ...], tuple[Ruleset, Any]] = {}

T = TypeVar("T")


def _memo(
    kind: str | tuple[object, ...],
    ruleset: Ruleset,
    tiles: tuple[int, ...],
    melds: tuple[Meld, ...],
    wild: int | None,
    compute: Callable[[], T],
) -> T:
    key = (kind, id(ruleset), tiles, melds, wild)
    hit = _cache.get(key)
    if hit is not None and hit[0] is ruleset:
        return cast(T, hit[1])  # what ``compute`` made for this key
    if len(_cache) >= _MAX_ENTRIES:
        _cache.clear()
    value = compute()
    _cache[key] = (ruleset, value)
    return value


def _store(
    kind: str,
    ruleset: Ruleset,
    tiles: tuple[int, ...],
    melds: tuple[Meld, ...],
    wild: int | None,
    value: object,
) -> None:
    _cache[(kind, id(ruleset), tiles, melds, wild)] = (ruleset, value)


def waits(
    ruleset: Ruleset, concealed: tuple[int, ...], melds: tuple[Meld, ...], wild: int | None
) -> frozenset[int]:
    """Tile kinds completing a 3n+1 hand (dead waits excluded, RULES.md 3.15.1)."""
    tiles = tuple(sorted(concealed))
    return _memo(
        "waits",
        ruleset,
        tiles,
        melds,
        wild,
        lambda: frozenset(hand_analysis.waits(list(tiles), melds, ruleset, wild)),
    )


def ready_discards(
    ruleset: Ruleset, tiles: tuple[int, ...], melds: tuple[Meld, ...], wild: int | None
) -> dict[int, tuple[int, ...]]:
    """For a 3n+2 hand: discard kind -> wait kinds, for discards that leave it ready.

    The answer also gives the waits of the ready hands its discards leave, so those are
    cached on the way: the next questions about a ready player's hand (a win on the
    opponent's discard or on the next draw) are then free. (Caching the empty waits of
    the other discards too costs more than the single win check each saves.)
    """
    key_tiles = tuple(sorted(tiles))

    def compute() -> dict[int, tuple[int, ...]]:
        found = hand_analysis.ready_discards(list(key_tiles), melds, ruleset, wild)
        ready = {d: tuple(w) for d, w in found.items() if w}
        for discard, kinds in ready.items():
            rest = list(key_tiles)
            rest.remove(discard)
            _store("waits", ruleset, tuple(rest), melds, wild, frozenset(kinds))
        return ready

    return _memo("ready", ruleset, key_tiles, melds, wild, compute)


def waits_after_discard(
    ruleset: Ruleset,
    tiles: tuple[int, ...],
    discard: int,
    melds: tuple[Meld, ...],
    wild: int | None,
) -> frozenset[int]:
    """The waits of the hand ``tiles`` leaves after ``discard``, read from the (cached)
    ready-discard answer of ``tiles`` and remembered for the questions that follow."""
    kinds = frozenset(ready_discards(ruleset, tiles, melds, wild).get(discard, ()))
    rest = list(sorted(tiles))
    rest.remove(discard)
    _store("waits", ruleset, tuple(rest), melds, wild, kinds)
    return kinds


def completes(
    ruleset: Ruleset,
    concealed: tuple[int, ...],
    melds: tuple[Meld, ...],
    tile: int,
    wild: int | None,
) -> bool:
    """Does ``tile`` complete the 3n+1 hand ``concealed``? Uses known waits when cached;
    else one win check, cheaper than finding every wait."""
    key_tiles = tuple(sorted(concealed))
    known = _cache.get(("waits", id(ruleset), key_tiles, melds, wild))
    if known is not None and known[0] is ruleset:
        return tile in known[1]
    return is_win(ruleset, key_tiles + (tile,), melds, wild)


def is_win(
    ruleset: Ruleset, tiles: tuple[int, ...], melds: tuple[Meld, ...], wild: int | None
) -> bool:
    key_tiles = tuple(sorted(tiles))
    return _memo(
        "win",
        ruleset,
        key_tiles,
        melds,
        wild,
        lambda: bool(hand_analysis.is_win(list(key_tiles), melds, ruleset, wild)),
    )


def forms(
    ruleset: Ruleset,
    concealed: tuple[int, ...],
    melds: tuple[Meld, ...],
    win: int,
    tsumo: bool,
    wild: int | None,
) -> frozenset[str]:
    """The winning forms reading the hand (empty when it is not a win)."""
    tiles = tuple(sorted(concealed))
    return _memo(
        ("forms", win, tsumo),
        ruleset,
        tiles,
        melds,
        wild,
        lambda: frozenset(
            d.form
            for d in hand_analysis.decompose(
                list(tiles), melds, win, ruleset, tsumo=tsumo, wild=wild
            )
        ),
    )
