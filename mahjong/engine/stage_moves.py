"""Taking up a stage offer (RULES.md 5.4.2, 5.4.4; stage_offers lists and checks them):
the engine's move handlers for 起始换牌, 搓牌 and 游戏中换牌. Every random position comes from
the hand's seed (stage_offers._stream), so ``replay`` rebuilds it."""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action
from .flow import Events, event, hand_without, private_event
from .stage import CUO, EXCHANGE, SWAP
from .stage_deal import pick_distinct
from .stage_offers import SWAP_SIZE, _stream
from .state import TURN, GameState
from .tiles import format_tiles


def on_exchange(state: GameState, seat: int, action: Action) -> tuple[GameState, Events]:
    """Each chosen tile goes to a distinct random live-wall position, whose tile comes
    to the hand; the live wall keeps its size. Then play starts with the dealer."""
    live = list(state.live)
    positions = pick_distinct(_stream(state, b"exchange"), len(live), len(action.tiles))
    got: list[int] = []
    for pos, tile in zip(positions, action.tiles):
        got.append(live[pos])
        live[pos] = tile
    player = state.seat(seat)
    concealed = tuple(sorted(hand_without(player, action.tiles) + tuple(got)))
    assert state.stage is not None  # the offers are a stage hand's
    stage = state.stage.evolve(offer=None, exchanged=len(action.tiles))
    state = state.with_seat(seat, player.evolve(concealed=concealed), live=tuple(live), stage=stage)
    exchanged = private_event(
        EXCHANGE,
        seat,
        {"gave": format_tiles(action.tiles), "got": format_tiles(sorted(got))},
        count=len(got),
    )
    return _start_play(state), [exchanged]


def skip_exchange(state: GameState, seat: int) -> tuple[GameState, Events]:
    assert state.stage is not None  # the exchange phase is a stage hand's
    state = state.evolve(stage=state.stage.evolve(offer=None))
    return _start_play(state), [event("pass", seat)]


def _start_play(state: GameState) -> GameState:
    return state.evolve(phase=TURN, turn=state.dealer)


def on_cuo(state: GameState, seat: int, action: Action) -> tuple[GameState, Events]:
    """The chosen kind comes from a random one of its live-wall copies; the drawn tile
    takes its place."""
    player, wanted = state.seat(seat), action.tile
    assert player.drawn is not None and state.stage is not None  # offered after a draw
    copies = [i for i, t in enumerate(state.live) if t == wanted]
    pos = copies[_stream(state, b"cuo").below(len(copies))]
    live = list(state.live)
    live[pos] = player.drawn
    stage = state.stage.evolve(offer=None, cuo=state.stage.cuo + 1)
    taken = private_event(
        CUO, seat, {"tile": format_tiles([wanted]), "gave": format_tiles([player.drawn])}
    )
    state = state.with_seat(seat, player.evolve(drawn=wanted), live=tuple(live), stage=stage)
    return state, [taken]


def on_swap(state: GameState, seat: int, action: Action) -> tuple[GameState, Events]:
    """Three copies of the offered kind (random ones of the live wall's) come to the
    hand; the three given tiles take their places. A given drawn tile leaves ``drawn``
    empty (a timeout then discards the rightmost tile)."""
    assert state.stage is not None  # the offers are a stage hand's
    kind, player = state.stage.swap_kind, state.seat(seat)
    assert kind is not None  # the offer names the kind
    copies = [i for i, t in enumerate(state.live) if t == kind]
    chosen = pick_distinct(_stream(state, b"swap"), len(copies), SWAP_SIZE)
    live = list(state.live)
    for index, tile in zip(chosen, action.tiles):
        live[copies[index]] = tile
    drawn = player.drawn
    if drawn is not None and drawn in action.tiles:
        rest, drawn = hand_without(player, action.tiles), None
    else:
        rest = hand_without(player.evolve(drawn=None), action.tiles)
    player = player.evolve(concealed=tuple(sorted(rest + (kind,) * SWAP_SIZE)), drawn=drawn)
    stage = state.stage.evolve(offer=None, swap_kind=None, swaps=state.stage.swaps + 1)
    swapped = private_event(
        SWAP, seat, {"gave": format_tiles(action.tiles), "got": format_tiles([kind] * SWAP_SIZE)}
    )
    return state.with_seat(seat, player, live=tuple(live), stage=stage), [swapped]


HANDLERS: dict[str, Callable[[GameState, int, Action], tuple[GameState, Events]]] = {
    EXCHANGE: on_exchange,
    CUO: on_cuo,
    SWAP: on_swap,
}
