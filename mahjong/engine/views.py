"""What each viewer may see of a hand: the only data about a hand that leaves the engine
towards a player (issue 2 item 6, ARCHITECTURE.md "How a move flows").

``view(state, seat)`` for a player, ``view(state, None)`` for a spectator. Plain
JSON-able dicts, tiles in notation. A viewer sees their own concealed tiles (the drawn
one apart), only the COUNT of the opponent's, the opponent's concealed kongs without
their tiles, wall COUNTS (never the order), and the seed and salt only once the hand has
ended -- when both hands are revealed too.

The view (tiles in notation)::

    {"ruleset": "classic", "viewer": 0 | 1 | None, "phase": "turn|claim|rob|haidi|ended",
     "turn": seat | None, "dealer": seat, "moves": n, "commitment": hex,
     "session": {"hand_number", "dealer", "streak", "base", "round_wind": "1z",
                 "match_over", "scores": [a, b]},
     "wall": {"live": n, "reserve": n}, "indicator": "3m" | None, "wild": "3m" | None,
     "seats": [{"seat", "concealed": "123m.." | None, "drawn": "5m" | None, "has_drawn",
                "concealed_count", "melds": ["pon 777z", "ankan" (hidden)], "flowers": "12f",
                "river": "19m5z", "ting": None | "ready" | "tian_ting", "guo": n}, x2],
     "last_discard": {"seat", "tile"} | None, "rob_tile": "5m" | None,
     "claimed": bool (this turn came by a claim: no river holds a newer discard),
     "haidi": {"seat", "shown", "drawn"}, "legal_actions": ["discard 5m", ...], "auto_play": bool,
     # stage (关卡) hands only; the offer's contents only for the player it is made to:
     "stage": {"number", "player", "features": [...], "offer": None | {"kind": "exchange",
               "choose": "any"} | {"kind": "cuo", "wall": {"5m": 2, ...}} | {"kind": "swap",
               "triplet": "777p", "choose": 3}, "bleed": name (once ended) | None},
     # once ended only:
     "outcome": {"kind", "winner", "loser", "escaper", "robbed_kong", "win", "hand"},
     "seed": hex, "salt": hex}
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from .game import is_forced, legal_actions
from .melds import Meld
from .session import base_points, match_over
from .stage import stage_level
from .state import CLAIM, ENDED, HAIDI, GameState
from .tiles import format_tile
from .tiles import format_tiles as _format_tiles
from .wins import seat_wind

HIDDEN_KONG = "ankan"  # an opponent's concealed kong: its tiles are not shown


def view(state: GameState, viewer: int | None) -> dict[str, Any]:
    ended = state.phase == ENDED
    out: dict[str, Any] = {
        "ruleset": state.ruleset.slug,
        "viewer": viewer,
        "phase": state.phase,
        "turn": None if ended else state.turn,
        "dealer": state.dealer,
        "session": _session(state),
        "commitment": state.commitment,
        "wall": {"live": len(state.live), "reserve": len(state.reserve)},
        "indicator": _tile(state.indicator),
        "wild": _tile(state.wild),
        "seats": [_seat(state, s, viewer) for s in (0, 1)],
        "last_discard": _last_discard(state),
        "claimed": state.claimed,
        "rob_tile": _tile(state.rob_tile),
        "haidi": _haidi(state),
        "legal_actions": [] if viewer is None else [str(a) for a in legal_actions(state, viewer)],
        # a ready hand with nothing to decide: the server plays it after the short delay
        "auto_play": viewer is not None and is_forced(state, viewer),
        "moves": state.moves,
    }
    if state.stage is not None:
        out["stage"] = _stage(state, viewer)
    if ended:
        out["outcome"] = _outcome(state)
        out["seed"] = state.seed.hex()
        out["salt"] = state.salt.hex()
    return out


def event_for(event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """An event as one viewer may receive it: secret fields only for their owner."""
    if "secret" not in event:
        return event
    if viewer is not None and event.get("private") == viewer:
        return {**{k: v for k, v in event.items() if k != "secret"}, **event["secret"]}
    return {k: v for k, v in event.items() if k != "secret"}


@lru_cache(maxsize=8192)
def format_tiles(tiles: tuple[int, ...]) -> str:
    """Rivers, flowers and hands are re-rendered for every viewer after every action;
    they change one tile at a time, so most renderings repeat."""
    return _format_tiles(tiles)


def _tile(kind: int | None) -> str | None:
    return None if kind is None else format_tile(kind)


def _session(state: GameState) -> dict[str, Any]:
    session = state.session
    return {
        "hand_number": session.hand_number,
        "dealer": session.dealer,
        "streak": session.streak,
        "base": base_points(state.ruleset, session),
        "round_wind": format_tile(session.round_wind),
        "match_over": state.phase == ENDED and match_over(state.ruleset, session),
        "scores": list(session.scores),
    }


def _seat(state: GameState, seat: int, viewer: int | None) -> dict[str, Any]:
    player = state.seat(seat)
    revealed = state.phase == ENDED or seat == viewer
    return {
        "seat": seat,
        "concealed": format_tiles(player.concealed) if revealed else None,
        "drawn": _tile(player.drawn) if revealed else None,
        "has_drawn": player.drawn is not None,
        "concealed_count": len(player.hand),
        "melds": [_meld(m, revealed) for m in player.melds],
        "flowers": format_tiles(player.flowers),
        "river": format_tiles(player.river),
        "ting": player.ting,
        "ting_at": player.ting_at,  # the move ("moves") of the 报听 declaration: public
        "guo": player.guo,
        # where the winds score (gb's matches), each seat's: the dealer East, the other West
        "wind": format_tile(seat_wind(state, seat)) if state.ruleset.match_hands else None,
    }


def _meld(meld: Meld, revealed: bool) -> str:
    if meld.type == "ankan" and not revealed:
        return HIDDEN_KONG
    return str(meld)


def _haidi(state: GameState) -> dict[str, Any]:
    """海底捞月 draws are shown face up (RULES.md 3.11.5), the one being decided too."""
    offered = None
    if state.phase == HAIDI:
        assert state.haidi_seat is not None  # set when the phase began
        offered = state.seat(state.haidi_seat).drawn
    return {
        "seat": state.haidi_seat,
        "shown": format_tiles(state.haidi_shown),
        "drawn": _tile(offered),
    }


def _stage(state: GameState, viewer: int | None) -> dict[str, Any]:
    """The stage, its features and (for the player only) the open offer. 搓牌 shows the
    live wall face up, grouped by kind -- counts, never the order (RULES.md 5.4.4)."""
    number, player = state.session.stage, state.session.stage_player
    stage = state.stage
    assert stage is not None  # shown for stage hands only
    offer: dict[str, Any] | None = None
    if stage.offer is not None and viewer == player and state.turn == player:
        offer = {"kind": stage.offer}
        if stage.offer == "exchange":
            offer["choose"] = "any"
        elif stage.offer == "cuo":
            offer["wall"] = {format_tile(k): n for k, n in sorted(Counter(state.live).items())}
        else:
            assert stage.swap_kind is not None  # a swap offer names its kind
            offer.update(triplet=format_tiles((stage.swap_kind,) * 3), choose=3)
    return {
        "number": number,
        "player": player,
        "features": list(stage_level(number).features),
        "offer": offer,
        "bleed": stage.bleed if state.phase == ENDED else None,
    }


def _last_discard(state: GameState) -> dict[str, Any] | None:
    if state.phase != CLAIM and not (state.phase == ENDED and _won_on_discard(state)):
        return None
    discarder = 1 - state.turn
    river = state.seat(discarder).river
    return {"seat": discarder, "tile": format_tile(river[-1])} if river else None


def _won_on_discard(state: GameState) -> bool:
    return (
        state.outcome is not None
        and state.outcome.kind == "discard_win"
        and not state.outcome.robbed_kong
    )


def _outcome(state: GameState) -> dict[str, Any]:
    outcome = state.outcome
    assert outcome is not None  # the hand has ended
    out: dict[str, Any] = {
        "kind": outcome.kind,
        "winner": outcome.winner,
        "loser": outcome.loser,
        "escaper": outcome.escaper,
        "robbed_kong": outcome.robbed_kong,
    }
    if outcome.context is not None:
        ctx = outcome.context
        out["win"] = format_tile(ctx.win)
        out["hand"] = format_tiles(ctx.hand)
    return out
