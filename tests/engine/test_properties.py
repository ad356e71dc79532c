"""Property tests (hypothesis) of the state machine for every ruleset: whatever legal
path a hand takes, every tile is accounted for, hand sizes are right, the JSON round
trip is exact, views leak nothing, and nothing that ``legal_actions`` did not offer is
accepted."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong.engine.actions import Action
from mahjong.engine.errors import IllegalAction
from mahjong.engine.game import apply, default_action, legal_actions, new_hand
from mahjong.engine.invariants import check_all
from mahjong.engine.rulesets import SLUGS
from mahjong.engine.state import ENDED

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_STEPS = 250
NEVER_OFFERED = {
    "draw",
    "exchange",
    "cuo",
    "swap",
}  # draws are the server's; stage offers come later

seeds = st.binary(min_size=4, max_size=16)
choices = st.lists(st.integers(min_value=0, max_value=1000), min_size=MAX_STEPS, max_size=MAX_STEPS)


def unoffered_actions(state, seat, offered):
    """Plausible-looking actions that were not offered: out of turn, tiles not held,
    claims that do not fit."""
    tiles = sorted(set(state.ruleset.kinds))
    probes = [Action("discard", (t,)) for t in tiles[:: max(1, len(tiles) // 8)]]
    probes += [
        Action("pon", (tiles[0],)),
        Action("hu"),
        Action("pass"),
        Action("guo"),
        Action("ankan", (tiles[-1],) * 4),
        Action("addkan", (tiles[1],)),
        Action("chi", (tiles[2], tiles[0], tiles[1])),
        Action("exchange", (tiles[0],)),
    ]
    return [a for a in probes if a not in offered]


@pytest.mark.parametrize("slug", SLUGS)
@SETTINGS
@given(seed=seeds, picks=choices)
def test_random_legal_play_keeps_every_invariant(slug, seed, picks):
    state = new_hand(slug, seed)
    assert check_all(state) == []
    for pick in picks:
        if state.phase == ENDED:
            break
        seat = state.turn
        offered = legal_actions(state, seat)
        assert offered, f"seat {seat} must act in {state.phase} but is offered nothing"
        assert legal_actions(state, 1 - seat) == []
        assert not {a.verb for a in offered} & NEVER_OFFERED
        before = state.to_json()
        for probe in unoffered_actions(state, seat, offered)[pick % 3 :: 3]:
            with pytest.raises(IllegalAction):
                apply(state, seat, probe)
        with pytest.raises(IllegalAction):
            apply(state, 1 - seat, offered[0])
        assert state.to_json() == before
        assert default_action(state, seat) in offered
        state, events = apply(state, seat, offered[pick % len(offered)])
        assert all(isinstance(e, dict) and "type" in e for e in events)
        assert check_all(state) == []
