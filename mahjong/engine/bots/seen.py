"""What a bot knows: its seat's view (``views.view(state, seat)``), read back into kinds.

A bot never receives the ``GameState``. Everything here is parsed from the per-seat view
dict, so a bot cannot read the wall or the opponent's concealed tiles: they are not in
its input. ``Seen`` is built once per decision.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from ..actions import Action
from ..melds import Meld, parse_meld
from ..offers import face as tile_face
from ..rulesets import Ruleset, get_ruleset
from ..tiles import parse_tile, parse_tiles
from ..views import HIDDEN_KONG
from ..wall import ByteStream, seed_bytes


class Bot(Protocol):
    """What a bot offers (bots/__init__.py): a choice from the seat's view and the
    offered actions."""

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action: ...


class SeededBot(Bot, Protocol):
    """A bot whose choices are a function of its seed and its input (NoisyBot draws its
    noise from the same seed)."""

    @property
    def seed(self) -> bytes | str | int: ...


@lru_cache(maxsize=65536)
def _tiles(text: str | None) -> tuple[int, ...]:
    return tuple(parse_tiles(text, check_copies=False)) if text else ()


@lru_cache(maxsize=65536)
def _meld(text: str, wild: int | None) -> Meld | None:
    if text == HIDDEN_KONG:
        return None
    return parse_meld(text, (lambda t: tile_face(t, wild)) if wild is not None else None)


@dataclass(frozen=True)
class Seen:
    ruleset: Ruleset
    seat: int
    phase: str
    hand: tuple[int, ...]  # own concealed tiles, the drawn one included, sorted
    drawn: int | None
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]
    ting: str | None
    guo: int
    opp_melds: tuple[Meld, ...]  # the opponent's shown melds (hidden kongs left out)
    opp_hidden_kongs: int
    opp_river: tuple[int, ...]
    opp_ting: str | None
    opp_ting_moves: int | None  # moves since the opponent declared ready
    opp_concealed: int  # how many concealed tiles the opponent holds
    river: tuple[int, ...]
    live: int  # tiles left in the live wall
    dealer: bool
    round_wind: int
    wild: int | None
    claim_tile: int | None  # the opponent's discard (claim) or the kong tile (rob)
    unseen: tuple[int, ...]  # per kind: copies not visible to this seat

    @property
    def concealed_hand(self) -> bool:
        return all(m.type == "ankan" for m in self.melds)

    @property
    def sets_needed(self) -> int:
        return self.ruleset.sets_in_hand - len(self.melds)

    @property
    def passed_since_ready(self) -> frozenset[int]:
        """Kinds of my discards the opponent let pass while ready (a locked hand cannot
        chi or pon, so my river only grows after the declaration). Each round after it
        takes at most three moves (my discard, theirs, my pass on it), so my last
        ``moves // 3`` discards surely came after."""
        if self.opp_ting_moves is None or not self.river:
            return frozenset()
        after = min(len(self.river), self.opp_ting_moves // 3)
        return frozenset(self.river[len(self.river) - after :]) if after else frozenset()

    @property
    def my_draws_left(self) -> int:
        return max(1, (self.live + 1) // 2)


def read_view(view: dict[str, Any], ruleset: Ruleset | None = None) -> Seen:
    rs = ruleset
    if rs is None or rs.slug != view["ruleset"]:
        rs = get_ruleset(view["ruleset"])
    me = view["viewer"]
    if me not in (0, 1):
        raise ValueError("a bot needs a player's view, not a spectator's")
    mine, theirs = view["seats"][me], view["seats"][1 - me]
    wild = parse_tile(view["wild"]) if view.get("wild") else None
    drawn = parse_tile(mine["drawn"]) if mine["drawn"] else None
    hand = tuple(sorted(_tiles(mine["concealed"]) + ((drawn,) if drawn is not None else ())))
    melds = tuple(m for m in (_meld(t, wild) for t in mine["melds"]) if m is not None)
    opp_melds = tuple(m for m in (_meld(t, wild) for t in theirs["melds"]) if m is not None)
    river, opp_river = _tiles(mine["river"]), _tiles(theirs["river"])
    claim_tile = None
    if view.get("last_discard"):
        claim_tile = parse_tile(view["last_discard"]["tile"])
    elif view.get("rob_tile"):
        claim_tile = parse_tile(view["rob_tile"])
    seen = [0] * 34
    for kinds in (hand, river, opp_river, _tiles(view["haidi"]["shown"])):
        for k in kinds:
            if k < 34:
                seen[k] += 1
    for meld in melds + opp_melds:
        for k in meld.tiles:
            seen[k] += 1
    if view.get("indicator"):
        seen[parse_tile(view["indicator"])] += 1
    if view.get("rob_tile") and claim_tile is not None:
        seen[claim_tile] += 1  # the added kong's tile is shown
    offered = view["haidi"]["drawn"]  # the 海底捞月 draw being decided, face up (3.11.5)
    if offered and view["haidi"]["seat"] != me:  # the seat's own is in its hand
        seen[parse_tile(offered)] += 1
    unseen = tuple(max(0, 4 - n) if k in _kind_set(rs) else 0 for k, n in enumerate(seen))
    return Seen(
        ruleset=rs,
        seat=me,
        phase=view["phase"],
        hand=hand,
        drawn=drawn,
        melds=melds,
        flowers=_tiles(mine["flowers"]),
        ting=mine["ting"],
        guo=mine["guo"],
        opp_melds=opp_melds,
        opp_hidden_kongs=sum(1 for t in theirs["melds"] if t == HIDDEN_KONG),
        opp_river=opp_river,
        opp_ting=theirs["ting"],
        opp_ting_moves=_since(view, theirs.get("ting_at")),
        opp_concealed=theirs["concealed_count"],
        river=river,
        live=view["wall"]["live"],
        dealer=view["dealer"] == me,
        round_wind=parse_tile(view["session"]["round_wind"]),
        wild=wild,
        claim_tile=claim_tile,
        unseen=unseen,
    )


def _since(view: dict[str, Any], move: int | None) -> int | None:
    return None if move is None else view["moves"] - move


@lru_cache(maxsize=64)
def _kind_set_by_suits(suits: str) -> frozenset[int]:
    from ..tiles import SUIT_BASE, SUIT_SIZE

    return frozenset(k for s in suits for k in range(SUIT_BASE[s], SUIT_BASE[s] + SUIT_SIZE[s]))


def _kind_set(rs: Ruleset) -> frozenset[int]:
    return _kind_set_by_suits(rs.suits)


def decision_stream(seed: bytes | str | int, view: dict[str, Any], salt: bytes) -> ByteStream:
    """A random stream for one decision, from the bot's seed and what the view shows.

    A bot keeps no memory between decisions (the web rebuilds it for every move), so its
    randomness is a function of its seed and the decision: the same seed and view give
    the same choice, whichever process asks."""
    me = view["viewer"]
    seats = view["seats"]
    key = "|".join(
        (
            view.get("commitment") or "",
            view["phase"],
            str(view["wall"]["live"]),
            seats[me]["concealed"] or "",
            seats[me]["drawn"] or "",
            seats[0]["river"],
            seats[1]["river"],
            str(len(seats[0]["melds"])),
            str(len(seats[1]["melds"])),
        )
    )
    digest = hashlib.sha256(key.encode()).digest()
    return ByteStream(seed_bytes(seed), salt + digest)
