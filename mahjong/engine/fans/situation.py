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
        melded_copies = sum(m.tiles.count(ctx.win) for m in ctx.melds)
        self.robbing = ctx.robbing_kong and not ctx.tsumo and held == 0 and melded_copies == 0
        self.last_of_kind = ((ctx.last_of_kind and held == 0) or melded_copies == 3) \
            and not self.robbing
        has_kong = any(m.is_kong for m in ctx.melds)
        self.kong_flower = ctx.tsumo and ctx.kong_replacement and has_kong
        self.melded = sum(1 for m in ctx.melds if m.type != "ankan")
        self.features = frozenset(self._features())

    def _features(self):
        """The situation's features fans may need (see facts.py)."""
        ctx = self.ctx
        yield "tsumo" if ctx.tsumo else "discard"
        yield "dealer" if ctx.dealer else "non_dealer"
        yield "concealed" if self.melded == 0 else "melded"
        flags = {"first_turn": ctx.first_turn, "flower": ctx.num_flowers > 0,
                 "last_tile": ctx.last_tile, "kong_flower": self.kong_flower,
                 "kong_replacement": ctx.tsumo and ctx.kong_replacement,
                 "replacement": ctx.tsumo and (ctx.kong_replacement or ctx.flower_replacement),
                 "robbing": self.robbing, "last_of_kind": self.last_of_kind,
                 "ready": ctx.ting in ("ready", "tian_ting"), "tian_ting": ctx.ting == "tian_ting",
                 "haidi_phase": ctx.haidi_phase, "all_melded": self.melded == 4,
                 "five_melded": self.melded == 5}
        yield from (name for name, on in flags.items() if on)

    @cached_property
    def unique_wait(self) -> bool:
        """The hand before the win could be completed by exactly one tile kind (3.8.6)."""
        return self._one_winning_kind()
