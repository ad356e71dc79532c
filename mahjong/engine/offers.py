"""What a seat is offered now: the legal actions of each phase (RULES.md 3.4-3.11).

Order follows RULES.md 3.4.2 and the claim priority of 3.5.1: win, kongs, pon, chi,
ready, discards, then the decline (pass / guo).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from itertools import product

from . import analysis, stage_offers
from .actions import GUO, HU, PASS, Action
from .state import CLAIM, EXCHANGE, HAIDI, ROB, TURN, GameState, SeatState
from .tiles import WHITE, is_number
from .wins import DISCARD, HEAVEN, SELF_DRAW, can_win
from .wins import ROB as ROB_WIN

# HU, PASS and GUO are defined with the actions and offered from here.
__all__ = ["GUO", "HU", "PASS", "chi_pairs", "claim_offers", "face", "legal_actions", "rob_offers"]


def legal_actions(state: GameState, seat: int) -> list[Action]:
    if seat != state.turn or state.phase not in _OFFERS:
        return []
    # The page (or a bot) asks, then ``apply`` validates against the same state: one
    # remembered answer, keyed by the state's identity, halves that work. The entry is
    # one tuple read and written whole, so threads never see half of another's answer.
    remembered = _remembered[0]
    if remembered is not None and remembered[0] is state:
        return list(remembered[1])
    actions = _OFFERS[state.phase](state, seat)
    _remembered[0] = (state, tuple(actions))
    return actions


_remembered: list[tuple[GameState, tuple[Action, ...]] | None] = [None]


# ----- faces and wilds (wenzhou 财神, RULES.md 9.2) ----------------------------------------


def face(tile: int, wild: int | None) -> int:
    """The kind a tile plays as: a 白板 stands for the wild's face (9.2.4)."""
    if wild is not None and tile == WHITE and wild != WHITE:
        return wild
    return tile


def _playable(tiles: Iterable[int], wild: int | None) -> list[int]:
    """Tiles that may be discarded or used in a claim: never a wild (9.2.3)."""
    return [t for t in tiles if t != wild] if wild is not None else list(tiles)


def _leaves_only_wilds(rest: list[int], wild: int | None) -> bool:
    """9.2.7: no claim may leave a hand of nothing but wilds to discard."""
    return wild is not None and bool(rest) and all(t == wild for t in rest)


def _without(tiles: Iterable[int], used: Iterable[int]) -> list[int]:
    rest = list(tiles)
    for t in used:
        rest.remove(t)
    return rest


# ----- declining a win --------------------------------------------------------------------


def _decline_win(state: GameState, player: SeatState) -> list[Action]:
    """A ready player declines with 过胡 where the ruleset has it, up to max_guo times;
    after that only 胡 is offered (RULES.md 6.2.1)."""
    rs = state.ruleset
    if rs.guo_hu and player.locked:
        return [GUO] if player.guo < rs.max_guo else []
    return [PASS]


# ----- own turn ---------------------------------------------------------------------------


def _turn_offers(state: GameState, seat: int) -> list[Action]:
    player = state.seat(seat)
    win = _self_draw_kind(state, seat)
    if player.locked:
        return _locked_turn_offers(state, player, win)
    actions = [HU] if win else []
    actions += _kong_offers(state, player)
    playable = sorted(set(_playable(player.hand, state.wild)))
    if state.ruleset.bao_ting:
        ready = analysis.ready_discards(state.ruleset, player.hand, player.melds, state.wild)
        actions += [Action("ting", (t,)) for t in playable if t in ready]
    actions += [Action("discard", (t,)) for t in playable]
    if state.stage is not None:
        actions += stage_offers.turn_offers(state, seat)
    return actions


def _self_draw_kind(state: GameState, seat: int) -> str | None:
    """The kind of self-drawn win open to the seat in turn, if any."""
    player = state.seat(seat)
    if player.drawn is not None:
        return SELF_DRAW if can_win(state, seat, SELF_DRAW) else None
    dealt_hand = seat == state.dealer and player.discards == 0 and not state.melded
    return HEAVEN if dealt_hand and can_win(state, seat, HEAVEN) else None


def _locked_turn_offers(state: GameState, player: SeatState, win: str | None) -> list[Action]:
    """报听 auto-play (3.9.2): win or continue; otherwise the drawn tile goes out."""
    assert player.drawn is not None  # a ready hand's turn comes with a draw
    actions = [HU, *_decline_win(state, player)] if win else [Action("discard", (player.drawn,))]
    if state.ruleset.locked_addkan and state.live and _pon_of(player, player.drawn):
        actions.append(Action("addkan", (player.drawn,)))
    return actions


def _pon_of(player: SeatState, tile: int) -> bool:
    return any(m.type == "pon" and m.tiles[0] == tile for m in player.melds)


def _kong_offers(state: GameState, player: SeatState) -> list[Action]:
    """Concealed and added kongs; never with an empty live wall (3.6.3), never of wilds."""
    if not state.live:
        return []
    wild = state.wild
    hand = sorted(player.hand)
    actions = []
    for i in range(len(hand) - 3):
        kind = hand[i]
        if (
            hand[i + 3] == kind
            and kind != wild
            and (i == 0 or hand[i - 1] != kind)
            and not _leaves_only_wilds(hand[:i] + hand[i + 4 :], wild)
        ):
            actions.append(Action("ankan", (kind,) * 4))
    for kind in sorted(m.tiles[0] for m in player.melds if m.type == "pon"):
        if kind in hand and kind != wild and not _leaves_only_wilds(_without(hand, [kind]), wild):
            actions.append(Action("addkan", (kind,)))
    return actions


# ----- the opponent's discard ---------------------------------------------------------


def claim_offers(state: GameState, seat: int) -> list[Action]:
    """Claims on the opponent's last discard; empty when there is nothing to claim (the
    state machine then skips the window and the seat draws)."""
    player = state.seat(seat)
    tile = state.seat(1 - seat).river[-1]
    win = can_win(state, seat, DISCARD)
    if player.locked:  # 3.5.6: a ready player is offered only the win
        return [HU, *_decline_win(state, player)] if win else []
    claims = [HU] if win else []
    claims += _set_claims(state, player, tile)
    return claims + [PASS] if claims else []


def _set_claims(state: GameState, player: SeatState, tile: int) -> list[Action]:
    wild = state.wild
    target = face(tile, wild)
    hand = _playable(player.concealed, wild)
    same = [t for t in hand if face(t, wild) == target]
    actions = []
    if (
        len(same) >= 3
        and state.live
        and not _leaves_only_wilds(_without(player.concealed, same[:3]), wild)
    ):
        actions.append(Action("kan", (tile,)))
    if len(same) >= 2 and not _leaves_only_wilds(_without(player.concealed, same[:2]), wild):
        actions.append(Action("pon", (tile,)))
    actions += [
        Action("chi", (tile, *pair))
        for pair in chi_pairs(hand, target, wild)
        if not _leaves_only_wilds(_without(player.concealed, pair), wild)
    ]
    return actions


def chi_pairs(hand: list[int], target: int, wild: int | None) -> list[tuple[int, int]]:
    """Pairs of concealed tiles completing a run with the claimed face (3.5.2: number
    tiles only, same suit, no wrapping), as sorted physical tiles."""
    if not is_number(target):
        return []
    by_face: Mapping[int, Collection[int]]
    if wild is None:  # every tile is its own face
        by_face = {t: (t,) for t in hand}
    else:
        faces: dict[int, set[int]] = {}
        for t in hand:
            faces.setdefault(face(t, wild), set()).add(t)
        by_face = faces
    suit = target // 9
    pairs: set[tuple[int, int]] = set()
    for low in (target - 2, target - 1, target):
        if low < 0 or low // 9 != suit or (low + 2) // 9 != suit:
            continue
        needed = [k for k in (low, low + 1, low + 2) if k != target]
        if needed[0] in by_face and needed[1] in by_face:
            for a, b in product(by_face[needed[0]], by_face[needed[1]]):
                pairs.add((a, b) if a <= b else (b, a))
    return sorted(pairs)


# ----- robbing, 海底捞月 -----------------------------------------------------------------


def rob_offers(state: GameState, seat: int) -> list[Action]:
    player = state.seat(seat)
    return [HU, *_decline_win(state, player)] if can_win(state, seat, ROB_WIN) else []


def _claim_window(state: GameState, seat: int) -> list[Action]:
    return claim_offers(state, seat) or _pause_only(state)


def _rob_window(state: GameState, seat: int) -> list[Action]:
    return rob_offers(state, seat) or _pause_only(state)


def _pause_only(state: GameState) -> list[Action]:
    """A window opened by ``claim_pause`` with nothing to claim: the seat can only let it
    go (the server does, at the pause's end: game.is_forced)."""
    return [PASS] if state.claim_pause else []


def _haidi_offers(state: GameState, seat: int) -> list[Action]:
    return [HU, PASS]


def _exchange_offers(state: GameState, seat: int) -> list[Action]:
    return stage_offers.exchange_offers(state, seat)


_OFFERS = {
    TURN: _turn_offers,
    CLAIM: _claim_window,
    ROB: _rob_window,
    HAIDI: _haidi_offers,
    EXCHANGE: _exchange_offers,
}
