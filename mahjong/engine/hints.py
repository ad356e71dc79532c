"""The waits hint (听牌提示): what a seat's own hand is ready for, counted from what that
seat can see. The table shows it where the room turns it on; the rules behind it (which
waits can win, which tiles are unseen) live here with the rest of the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from . import analysis
from .state import HAIDI, GameState
from .tiles import format_tile, max_copies
from .wins import scores_the_minimum


def unseen(state: GameState, seat: int) -> Counter[int]:
    """Copies of each kind this seat cannot see: every copy minus its own concealed
    tiles, both rivers, the melds shown face up, the 财神 indicator, the 海底捞月 draws
    shown face up (RULES.md 3.11.5: those set aside and the one being decided) and an
    added kong's tile while it can be robbed. Only what the seat sees enters (never the
    opponent's concealed tiles or the wall): the bots count the same (bots.seen)."""
    me = state.seat(seat)
    seen = Counter(me.hand)
    for s in state.seats:
        seen.update(s.river)
        for meld in s.melds:
            if s is me or meld.type != "ankan":
                seen.update(meld.tiles)
    if state.indicator is not None:
        seen[state.indicator] += 1
    seen.update(state.haidi_shown)
    if state.phase == HAIDI and state.haidi_seat not in (None, seat):  # its own is in hand
        offered = state.seat(state.haidi_seat).drawn
        if offered is not None:
            seen[offered] += 1
    if state.rob_tile is not None:
        seen[state.rob_tile] += 1
    return Counter({k: max(0, max_copies(k) - seen[k]) for k in state.ruleset.kinds})


def waits_hint(state: GameState, seat: int) -> dict[str, Any] | None:
    """What the seat's own hand is ready for: with a tile to discard, each discard that
    keeps it ready and the waits it leaves (most tiles left first); otherwise its waits.
    None when the hand is not ready. A locked (报听) hand has no discard to choose, the
    server lets its drawn tile go (RULES.md 3.9.2): it is shown the waits of its tiles.

    A wait counts only if winning on it can reach the ruleset's minimum fan (gb's 8):
    a hand whose every wait falls short cannot win, so it is not called ready."""
    me = state.seat(seat)
    rs, wild, left = state.ruleset, state.wild, unseen(state, seat)
    if len(me.hand) % 3 == 2 and not me.locked:
        options: list[dict[str, Any]] = []
        for discard, waits in analysis.ready_discards(rs, me.hand, me.melds, wild).items():
            kinds = _winnable(state, seat, _without(me.hand, discard), waits)
            if kinds:
                options.append({"discard": format_tile(discard)} | _waits_of(kinds, left))
        options.sort(key=lambda o: -o["left"])
        return {"discards": options} if options else None
    kinds = _winnable(state, seat, me.concealed, analysis.waits(rs, me.concealed, me.melds, wild))
    return {"ready": _waits_of(kinds, left)} if kinds else None


def _winnable(
    state: GameState, seat: int, concealed: tuple[int, ...], kinds: Iterable[int]
) -> list[int]:
    if not state.ruleset.min_fan:
        return list(kinds)
    return [k for k in kinds if scores_the_minimum(state, seat, concealed, k)]


def _without(tiles: tuple[int, ...], tile: int) -> tuple[int, ...]:
    rest = list(tiles)
    rest.remove(tile)
    return tuple(rest)


def _waits_of(kinds: Iterable[int], left: Counter[int]) -> dict[str, Any]:
    waits = [{"tile": format_tile(k), "left": left[k]} for k in sorted(kinds)]
    return {"waits": waits, "left": sum(w["left"] for w in waits)}
