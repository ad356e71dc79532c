"""When a seat may declare a win, and the WinContext the state hands to scoring.

A win is legal when the tiles form one of the ruleset's winning forms (``hand``) and,
where the ruleset has a minimum fan (gb: 8 without flowers), the scorer says the hand
reaches it (RULES.md 3.5.5, 8.3).
"""

from __future__ import annotations

from typing import Any

from . import analysis
from .melds import Meld
from .shapes import SAN_CAI_SHEN, WinContext
from .state import FLOWER, KONG, GameState
from .tiles import EAST, WEST

# How a win happened
SELF_DRAW = "self_draw"  # on a drawn tile (front, kong or flower replacement)
HEAVEN = "heaven"  # the dealer's dealt hand, before any discard (天和)
DISCARD = "discard"
ROB = "rob"  # robbing an added kong (抢杠)
HAIDI = "haidi"  # a reserve tile in the 海底捞月 phase
TSUMO_WINS = (SELF_DRAW, HEAVEN, HAIDI)


def win_tile(state: GameState, seat: int, how: str) -> int:
    """The tile a win of this kind is declared on."""
    player = state.seat(seat)
    if how in (SELF_DRAW, HAIDI):
        assert player.drawn is not None  # can_win checks it first
        return player.drawn
    if how == HEAVEN:  # any tile of the complete dealt hand: the rightmost plain one
        plain = [t for t in player.concealed if t != state.wild]
        return (plain or player.concealed)[-1]
    if how == ROB:
        assert state.rob_tile is not None  # set for as long as the rob window is open
        return state.rob_tile
    return state.seat(1 - seat).river[-1]


def can_win(state: GameState, seat: int, how: str) -> bool:
    player = state.seat(seat)
    if how in (SELF_DRAW, HAIDI) and player.drawn is None:
        return False
    win = win_tile(state, seat, how)
    concealed = _concealed_without(player.hand, win) if how == HEAVEN else player.concealed
    if not _has_winning_shape(state, concealed, player.melds, win, how in TSUMO_WINS):
        return False
    if state.ruleset.min_fan:
        return _reaches_minimum_fan(state, seat, how)
    return True


def _reaches_minimum_fan(state: GameState, seat: int, how: str) -> bool:
    """Only the scorer knows the fan (gb: 8 without flowers, RULES.md 8.3). Imported here
    so rulesets without a minimum never load the fan tables."""
    from .fans import score_win

    return bool(score_win(state.ruleset, win_context(state, seat, how)).legal)


def _has_winning_shape(
    state: GameState, concealed: tuple[int, ...], melds: tuple[Meld, ...], win: int, tsumo: bool
) -> bool:
    rs, wild = state.ruleset, state.wild
    if not analysis.completes(rs, concealed, melds, win, wild):
        return False
    if wild is None or tsumo or (concealed + (win,)).count(wild) < 3:
        return True
    # 三财神 wins only on the holder's own turn (RULES.md 9.2.7): on a discard the hand
    # needs another reading.
    return bool(analysis.forms(rs, concealed, melds, win, False, wild) - {SAN_CAI_SHEN})


def _concealed_without(tiles: tuple[int, ...], tile: int) -> tuple[int, ...]:
    rest = list(tiles)
    rest.remove(tile)
    return tuple(sorted(rest))


def win_context(state: GameState, seat: int, how: str) -> WinContext:
    player = state.seat(seat)
    win = win_tile(state, seat, how)
    concealed = _concealed_without(player.hand, win) if how == HEAVEN else player.concealed
    return _context(
        state,
        seat,
        concealed,
        win,
        how in TSUMO_WINS,
        last_of_kind=_visible_copies(state, win, how) >= 3,
        last_tile=_on_last_tile(state, how),
        kong_replacement=how == SELF_DRAW and state.draw_source == KONG,
        flower_replacement=how == SELF_DRAW and state.draw_source == FLOWER,
        robbing_kong=how == ROB,
        first_turn=not state.melded and player.discards == 0,
        haidi_phase=how == HAIDI,
    )


def _context(
    state: GameState, seat: int, concealed: tuple[int, ...], win: int, tsumo: bool, **situation: Any
) -> WinContext:
    """A win of ``seat`` on ``win``: what the seat and the table say, and the situation."""
    player = state.seat(seat)
    dealer = seat == state.dealer
    return WinContext(
        hand=concealed,
        melds=player.melds,
        win=win,
        tsumo=tsumo,
        seat_wind=seat_wind(state, seat),
        round_wind=state.session.round_wind,
        flowers=player.flowers,
        dealer=dealer,
        ting=player.ting or False,
        passes=player.guo,
        wild=state.wild,
        **situation,
    )


def seat_wind(state: GameState, seat: int) -> int:
    """A seat's wind (gb's 门风, RULES.md 8.1): the dealer is East, the opponent West."""
    return EAST if seat == state.dealer else WEST


def scores_the_minimum(state: GameState, seat: int, concealed: tuple[int, ...], win: int) -> bool:
    """Can the ready hand ``concealed`` (3n+1 tiles, the seat's melds beside it) be won
    on ``win`` at the ruleset's minimum fan, self-drawn or on a discard, with no lucky
    situation (last tile, kong replacement) counted?"""
    from .fans import score_win

    return any(
        score_win(state.ruleset, _context(state, seat, concealed, win, tsumo)).legal
        for tsumo in (False, True)
    )


def _visible_copies(state: GameState, kind: int, how: str) -> int:
    """Copies of ``kind`` in both pools and exposed melds (和绝张, RULES.md 3.8.7),
    not counting the winning tile itself when it lies in a pool."""
    seen = 0
    for player in state.seats:
        seen += player.river.count(kind)
        seen += sum(m.tiles.count(kind) for m in player.melds if m.type != "ankan")
    return seen - (1 if how == DISCARD else 0)


def _on_last_tile(state: GameState, how: str) -> bool:
    """Self-drawn on the last live tile, or won on the discard made after it."""
    return how in (SELF_DRAW, DISCARD) and not state.live
