"""Invariants every reachable state keeps; checked by ``simulate`` after every action and
by the property tests. Each check returns a list of human-readable violations."""

from __future__ import annotations

import json
from collections import Counter

from .errors import IllegalAction
from .offers import PASS
from .state import ENDED, EXCHANGE, HAIDI, TURN, GameState
from .tiles import format_tiles
from .views import view

MIN_WALL_RUN = 8  # a live-wall run this long in a view can only be a leak of its order


def tiles_everywhere(state: GameState) -> Counter[int]:
    counts = Counter(state.live)
    counts.update(state.reserve)
    counts.update(state.unused)
    counts.update(state.haidi_shown)
    if state.indicator is not None:
        counts[state.indicator] += 1
    if state.rob_tile is not None:
        counts[state.rob_tile] += 1
    for player in state.seats:
        counts.update(player.hand)
        counts.update(player.flowers)
        counts.update(player.river)
        for meld in player.melds:
            counts.update(meld.tiles)
    return counts


def check_tiles(state: GameState) -> list[str]:
    have, box = tiles_everywhere(state), Counter(state.ruleset.tile_set)
    if have == box:
        return []
    return [
        f"tiles not accounted for: extra {format_tiles(sorted((have - box).elements()))!r}, "
        f"missing {format_tiles(sorted((box - have).elements()))!r}"
    ]


def check_hand_sizes(state: GameState) -> list[str]:
    if state.phase == ENDED:
        return []
    problems = []
    for seat, player in enumerate(state.seats):
        holding_extra = (
            seat == state.turn
            and state.phase in (TURN, HAIDI)
            or state.phase == EXCHANGE
            and seat == state.dealer
        )  # 关卡 起始换牌 before play
        expected = state.ruleset.hand_size + (1 if holding_extra else 0)
        if player.size() != expected:
            problems.append(f"seat {seat} holds {player.size()} tiles, expected {expected}")
    return problems


def check_round_trip(state: GameState) -> list[str]:
    if GameState.from_json(state.to_json()) != state:
        return ["the JSON round trip changed the state"]
    return []


def check_views(state: GameState) -> list[str]:
    """No viewer sees the opponent's concealed tiles, the wall order or the seed early."""
    problems = []
    ended = state.phase == ENDED
    secrets = [] if ended else [state.seed.hex(), state.salt.hex(), state.wall_seed.hex()]
    if len(state.live) >= MIN_WALL_RUN:
        secrets.append(format_tiles(state.live))
    for viewer in (0, 1, None):
        shown = view(state, viewer)
        text = json.dumps(shown, ensure_ascii=False)
        problems += [f"view of {viewer} leaks {s!r}" for s in secrets if s in text]
        if ended:
            continue
        for seat in (0, 1):
            if seat == viewer:
                continue
            entry = shown["seats"][seat]
            if entry["concealed"] is not None or entry["drawn"] is not None:
                problems.append(f"view of {viewer} shows seat {seat}'s concealed tiles")
            if any(m.startswith("ankan ") for m in entry["melds"]):
                problems.append(f"view of {viewer} shows seat {seat}'s concealed kong")
    return problems


def check_out_of_turn_refused(state: GameState) -> list[str]:
    """The seat not to act cannot act; the state (a value) is untouched."""
    from .game import apply  # the checks sit below the state machine they check

    idle = 1 - state.turn if state.phase != ENDED else 0
    try:
        apply(state, idle, PASS)
    except IllegalAction:
        return []
    return [f"seat {idle} was allowed to pass out of turn"]


def check_all(state: GameState) -> list[str]:
    return (
        check_tiles(state)
        + check_hand_sizes(state)
        + check_round_trip(state)
        + check_views(state)
        + check_out_of_turn_refused(state)
    )
