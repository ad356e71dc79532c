"""The stage offers (RULES.md 5.4.2, 5.4.4) as engine actions, for the player only.

* 起始换牌 ``exchange 19m5z``: in the ``exchange`` phase that opens a stage-2+ hand, any
  number of concealed tiles, each swapped with a tile at a random live-wall position
  (``pass`` keeps the hand).
* 搓牌 ``cuo 5m``: after a front draw (``p_cuo``), the drawn tile is replaced by any tile
  of the live wall; the drawn tile takes that tile's place.
* 游戏中换牌 ``swap 258m``: after a front draw (``p_swap``, rolled only without a 搓牌),
  a triplet of a kind with 3+ copies in the live wall is offered; the player gives any
  3 concealed tiles back, which take the triplet's places.

Every action ``legal_actions`` lists applies. It lists a 搓牌 per kind of the live wall
and, for 游戏中换牌, every distinct choice of 3 of the player's tiles (at most C(14, 3) =
364; discarding declines). 起始换牌 allows any non-empty part of the hand, too many to
list (2^14): for that one phase the list is representative -- each kind alone, the
whole hand, and ``pass`` -- and ``allows`` is the full check that ``apply`` makes of a
chosen exchange or swap. Every random choice (the offer rolls, positions in the wall)
comes from the hand's seed through SHA-256 sub-streams labelled with the move number,
so ``replay`` rebuilds it. Taking an offer up is stage_moves's.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from .actions import PASS, Action
from .stage import CUO, DRAW_ANY, EXCHANGE, SWAP, stage_level
from .stage_deal import chance
from .state import EXCHANGE as EXCHANGE_PHASE
from .state import TURN, GameState
from .tiles import format_tiles
from .wall import ByteStream

SWAP_SIZE = 3
CHOICES = {EXCHANGE: None, SWAP: SWAP_SIZE}  # verb -> tiles to choose (None: one or more)
_CHOICE_PHASE = {EXCHANGE: EXCHANGE_PHASE, SWAP: TURN}
VERBS = (EXCHANGE, CUO, SWAP)


def _stream(state: GameState, what: bytes) -> ByteStream:
    return ByteStream(state.wall_seed, b"stage-" + what + b"|" + str(state.moves).encode())


def _offer_open(state: GameState, seat: int, kind: str) -> bool:
    stage = state.stage
    return stage is not None and stage.offer == kind and seat == state.session.stage_player


# ----- what is offered ------------------------------------------------------------------


def exchange_offers(state: GameState, seat: int) -> list[Action]:
    """The ``exchange`` phase, as a representative list: each kind alone, the whole
    hand, or pass (``allows`` accepts any other part of the hand)."""
    if not _offer_open(state, seat, EXCHANGE):
        return []
    hand = tuple(sorted(state.seat(seat).hand))
    singles = [Action(EXCHANGE, (kind,)) for kind in sorted(set(hand))]
    return [*singles, *([Action(EXCHANGE, hand)] if len(hand) > 1 else []), PASS]


def turn_offers(state: GameState, seat: int) -> list[Action]:
    """A 搓牌 per live-wall kind, or each distinct 3 tiles to give for the offered
    triplet, on the player's turn."""
    if _offer_open(state, seat, CUO):
        return [Action(CUO, (kind,)) for kind in sorted(set(state.live))]
    if _offer_open(state, seat, SWAP):
        hand = sorted(state.seat(seat).hand)
        return [Action(SWAP, give) for give in sorted(set(combinations(hand, SWAP_SIZE)))]
    return []


def allows(state: GameState, seat: int, action: Action) -> bool:
    """The full check of a chosen exchange or swap: its offer is open to the seat now
    and the tiles are a part of the seat's hand of the right size."""
    return (
        action.verb in CHOICES
        and _choice_open(state, seat, action.verb)
        and why_not(state, seat, action) is None
    )


def _choice_open(state: GameState, seat: int, verb: str) -> bool:
    return (
        state.turn == seat and state.phase == _CHOICE_PHASE[verb] and _offer_open(state, seat, verb)
    )


def why_not(state: GameState, seat: int, action: Action) -> tuple[str, dict[str, Any]] | None:
    """Why a chosen exchange or swap cannot be taken as given, and the refusal's code and
    facts (IllegalAction), if any (None: it can, or it is no choice): a clearer refusal
    than the list of what is offered."""
    if action.verb not in CHOICES:
        return None
    size = CHOICES[action.verb]
    if size is not None and len(action.tiles) != size:
        return (
            f"{action.verb} gives back exactly {size} tiles, not {len(action.tiles)}",
            {"code": "give_back_size", "size": size, "count": len(action.tiles)},
        )
    if not action.tiles:
        return f"{action.verb} needs at least one tile", {"code": "give_back_none"}
    missing = format_tiles(
        sorted((Counter(action.tiles) - Counter(state.seat(seat).hand)).elements())
    )
    if missing:
        return f"{action.verb}: {missing} not in your hand", {"code": "not_held", "tiles": missing}
    return None


# ----- rolling the in-game offers -------------------------------------------------------


def after_move(state: GameState, events: list[dict[str, Any]]) -> GameState:
    """5.4.4: when a move ends with the player's front draw in stage 3+ (not locked by
    报听), roll a 搓牌 (``p_cuo``), else a 游戏中换牌 (``p_swap``): one roll per turn."""
    stage, seat = state.stage, state.session.stage_player
    assert stage is not None  # asked after the moves of stage hands only
    drew = any(
        e["type"] == "draw" and e.get("seat") == seat and e.get("source") == "front" for e in events
    )
    if (
        not drew
        or state.phase != TURN
        or state.turn != seat
        or state.seat(seat).locked
        or not stage_level(state.session.stage).has(DRAW_ANY)
        or not state.live
    ):
        return state
    options = state.ruleset.options
    stream = _stream(state, b"offer")
    if chance(stream, options["p_cuo"]):
        return state.evolve(stage=stage.evolve(offer=CUO))
    if chance(stream, options["p_swap"]):
        counts = Counter(state.live)
        kinds = sorted(k for k, n in counts.items() if n >= SWAP_SIZE)
        if kinds:
            kind = kinds[stream.below(len(kinds))]
            return state.evolve(stage=stage.evolve(offer=SWAP, swap_kind=kind))
    return state


def expire(state: GameState) -> GameState:
    """An offer lasts for the decision it came with: any other action lets it go."""
    if state.stage is None or state.stage.offer is None:
        return state
    return state.evolve(stage=state.stage.evolve(offer=None, swap_kind=None))
