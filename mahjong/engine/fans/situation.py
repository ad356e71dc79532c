"""The situation of a win (how and when it was won), normalised once per hand.

Flags that contradict the tiles are dropped, as the competition calculators do:
和绝张 is impossible while the hand itself holds another copy of the winning tile and
certain when the player's own melds show the other three (3.8.7); a robbed kong is
never on a tile the robber holds or has melded, and never combines with 和绝张; a
kong-replacement win needs a kong."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..shapes import WinContext
from .features import bit, names

if TYPE_CHECKING:
    from .facts import TileFacts


class Situation:
    def __init__(self, ctx: WinContext, one_winning_kind: Callable[[], bool]) -> None:
        self.ctx = ctx
        self._one_winning_kind = one_winning_kind
        self.tiles: TileFacts | None = None  # the hand's, set by the first reading's Facts
        self._unique_wait: bool | None = None
        win = ctx.win
        held = ctx.hand.count(win)
        melded_copies = 0
        has_kong = False
        melded = 0
        for meld in ctx.melds:
            melded_copies += meld.tiles.count(win)
            kind = meld.type
            if kind != "ankan":
                melded += 1
            if kind == "kan" or kind == "ankan":
                has_kong = True
        tsumo = ctx.tsumo
        self.robbing = ctx.robbing_kong and not tsumo and held == 0 and melded_copies == 0
        self.last_of_kind = (
            (ctx.last_of_kind and held == 0) or melded_copies == 3
        ) and not self.robbing
        self.kong_flower = tsumo and ctx.kong_replacement and has_kong
        self.melded = melded
        # The situation's features fans may need (see facts.py), as bits.
        out = (_TSUMO if tsumo else _DISCARD) | (_DEALER if ctx.dealer else _NON_DEALER)
        out |= _CONCEALED if melded == 0 else _MELDED
        if ctx.first_turn:
            out |= _FIRST_TURN
        if ctx.flowers or ctx.flower_count:
            out |= _FLOWER
        if ctx.last_tile:
            out |= _LAST_TILE
        if self.kong_flower:
            out |= _KONG_FLOWER
        if tsumo and ctx.kong_replacement:
            out |= _KONG_REPLACEMENT
        if tsumo and (ctx.kong_replacement or ctx.flower_replacement):
            out |= _REPLACEMENT
        if self.robbing:
            out |= _ROBBING
        if self.last_of_kind:
            out |= _LAST_OF_KIND
        if ctx.ting in ("ready", "tian_ting"):
            out |= _READY
        if ctx.ting == "tian_ting":
            out |= _TIAN_TING
        if ctx.haidi_phase:
            out |= _HAIDI_PHASE
        if melded == 4:
            out |= _ALL_MELDED
        if melded == 5:
            out |= _FIVE_MELDED
        self.bits = out

    @property
    def features(self) -> frozenset[str]:
        return names(self.bits)

    @property
    def unique_wait(self) -> bool:
        """The hand before the win could be completed by exactly one tile kind (3.8.6).
        Asked at most once (a plain attribute: functools.cached_property takes a lock)."""
        found = self._unique_wait
        if found is None:
            found = self._unique_wait = self._one_winning_kind()
        return found


(
    _TSUMO,
    _DISCARD,
    _DEALER,
    _NON_DEALER,
    _CONCEALED,
    _MELDED,
    _FIRST_TURN,
    _FLOWER,
    _LAST_TILE,
    _KONG_FLOWER,
    _KONG_REPLACEMENT,
    _REPLACEMENT,
    _ROBBING,
    _LAST_OF_KIND,
    _READY,
    _TIAN_TING,
    _HAIDI_PHASE,
    _ALL_MELDED,
    _FIVE_MELDED,
) = map(
    bit,
    (
        "tsumo",
        "discard",
        "dealer",
        "non_dealer",
        "concealed",
        "melded",
        "first_turn",
        "flower",
        "last_tile",
        "kong_flower",
        "kong_replacement",
        "replacement",
        "robbing",
        "last_of_kind",
        "ready",
        "tian_ting",
        "haidi_phase",
        "all_melded",
        "five_melded",
    ),
)
