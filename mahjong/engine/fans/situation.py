"""The situation of a win (how and when it was won), normalised once per hand.

Flags that contradict the tiles are dropped, as the competition calculators do:
和绝张 is impossible while the hand itself holds another copy of the winning tile and
certain when the player's own melds show the other three (3.8.7); a robbed kong is
never on a tile the robber holds or has melded, and never combines with 和绝张; a
kong-replacement win needs a kong."""

from __future__ import annotations

from functools import cached_property
from typing import Callable

from ..shapes import WinContext


class Situation:
    def __init__(self, ctx: WinContext, one_winning_kind: Callable[[], bool]):
        self.ctx = ctx
        self._one_winning_kind = one_winning_kind
        held = ctx.hand.count(ctx.win)
        melded = sum(m.tiles.count(ctx.win) for m in ctx.melds)
        self.robbing = ctx.robbing_kong and not ctx.tsumo and held == 0 and melded == 0
        self.last_of_kind = ((ctx.last_of_kind and held == 0) or melded == 3) and not self.robbing
        has_kong = any(m.is_kong for m in ctx.melds)
        self.kong_flower = ctx.tsumo and ctx.kong_replacement and has_kong
        self.tsumo = ctx.tsumo

    @cached_property
    def unique_wait(self) -> bool:
        """The hand before the win could be completed by exactly one tile kind (3.8.6)."""
        return self._one_winning_kind()
