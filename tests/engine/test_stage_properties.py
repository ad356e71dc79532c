"""Property test (hypothesis) of 关卡 stage hands, stages 1-4: random players that pick
any listed action -- the offers included, and for 起始换牌 also any unlisted part of the
hand (``legal_actions`` lists a representative few) -- play each hand to its end; every
state keeps the engine's invariants, every listed action applies, nothing unoffered is
accepted, and the recorded moves replay to the same final state."""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong.engine.actions import Action
from mahjong.engine.errors import IllegalAction
from mahjong.engine.game import apply, default_action, legal_actions, new_hand, replay
from mahjong.engine.invariants import check_all
from mahjong.engine.rulesets import get_ruleset
from mahjong.engine.state import ENDED, EXCHANGE
from mahjong.engine.wall import ByteStream

# Offers and rigged deals far more often than the shipped odds, so a few hands meet them all.
RULES = get_ruleset(
    "stage", {"options": {"p_cuo": 0.25, "p_swap": 0.5, "p_bleed": 0.3, "p_bleed_yakuman": 0.3}}
)
MAX_STEPS = 400


def pick_part(stream: ByteStream, hand) -> tuple[int, ...]:
    """A random non-empty part of the hand (each tile kept with probability 1/2)."""
    part = tuple(t for t in hand if stream.below(2))
    return part or hand[:1]


def unoffered(state, seat, offered) -> list[Action]:
    """Offers the seat does not have now: wrong sizes, tiles not held, closed offers."""
    hand = state.seat(seat).hand
    absent = next(k for k in range(34) if k not in hand)
    probes = [
        Action("swap", tuple(sorted(hand))),
        Action("swap", (absent,) * 3),
        Action("swap", hand[:2]),
        Action("exchange", (absent,)),
        Action("exchange", (*hand, hand[0])),
        Action("cuo", (absent,)),
    ]
    if state.stage.offer != "cuo":
        probes.append(Action("cuo", (hand[0],)))
    return [p for p in probes if p not in offered]


def play(stage: int, seed: bytes, player: int):
    start = new_hand(RULES, seed, stage=stage, stage_player=player)
    stream = ByteStream(seed, b"test-stage-picks")
    state, moves, taken = start, [], Counter()
    for _ in range(MAX_STEPS):
        if state.phase == ENDED:
            break
        assert check_all(state) == []
        seat = state.turn
        offered = legal_actions(state, seat)
        assert offered and legal_actions(state, 1 - seat) == []
        assert default_action(state, seat) in offered
        if seat != player:
            assert not {a.verb for a in offered} & {"exchange", "cuo", "swap"}
        before = state.to_json()
        for probe in unoffered(state, seat, offered):
            with pytest.raises(IllegalAction):
                apply(state, seat, probe)
        assert state.to_json() == before
        action = offered[stream.below(len(offered))]
        if state.phase == EXCHANGE and stream.below(2):
            action = Action("exchange", pick_part(stream, state.seat(seat).hand))
        state, _ = apply(state, seat, action)
        moves.append((seat, str(action)))
        taken[action.verb] += 1
    assert state.phase == ENDED and check_all(state) == []
    again, _ = replay(start, moves)
    assert again == state and again.to_json() == state.to_json()
    return taken


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    stage=st.integers(min_value=1, max_value=4),
    seed=st.binary(min_size=4, max_size=16),
    player=st.integers(min_value=0, max_value=1),
)
def test_random_stage_play_keeps_every_invariant_and_replays(stage, seed, player):
    play(stage, seed, player)


def test_fixed_seeds_meet_every_offer():
    """Many seeds over stages 2-4: between them the random players take every offer."""
    taken = Counter()
    for n in range(12):
        taken += play(2 + n % 3, f"stage-prop-{n}".encode(), n % 2)
    assert taken["exchange"] and taken["cuo"] and taken["swap"], taken
