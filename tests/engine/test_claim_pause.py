"""claim_pause: every discard and added kong opens its window, so the window itself says
nothing of the opponent's tiles (issue 30: the discarder saw a window exactly when the
opponent held a pair of the discard)."""

from test_game import play

from mahjong.engine.game import (
    escape,
    is_forced,
    is_pause_window,
    legal_actions,
    new_hand,
    next_hand,
)
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.state import GameState
from mahjong.engine.tiles import parse_tile, parse_tiles
from mahjong.engine.views import view

QUIET = dict(dealer_hand="11122m59m4445566z", other_hand="3455567m112233z", draws="7z")
ROB = dict(
    dealer_hand="123456m1112223z3z", other_hand="55m79m1m444z555z6z7z", draws="9m5m", back="2m"
)


def paused(**script):
    return scripted_hand("classic", **script).evolve(claim_pause=True)


def public(state):
    """What the discarder (seat 0) and a spectator read of the state."""
    return view(state, 0), view(state, None)


def test_a_discard_nobody_can_claim_still_opens_the_window_with_only_pass():
    state, events = play(paused(**QUIET), "0 discard 4z")
    assert (state.phase, state.turn, [e["type"] for e in events]) == ("claim", 1, ["discard"])
    assert [str(a) for a in legal_actions(state, 1)] == ["pass"]
    assert is_forced(state, 1) and is_pause_window(state)
    state, events = play(state, "1 pass")
    assert (state.phase, state.turn, state.seat(1).drawn) == ("turn", 1, parse_tile("7z"))
    assert [e["type"] for e in events] == ["pass", "draw"]


def test_a_discard_that_can_be_claimed_offers_the_claims_as_without_the_pause():
    state, _ = play(paused(**QUIET), "0 discard 5m")
    assert [str(a) for a in legal_actions(state, 1)] == [
        "kan 5m",
        "pon 5m",
        "chi 5m 34m",
        "chi 5m 46m",
        "chi 5m 67m",
        "pass",
    ]
    assert not is_forced(state, 1)


def test_the_discarder_and_a_spectator_see_the_same_window_with_or_without_an_option():
    quiet, _ = play(paused(**QUIET), "0 discard 4z")
    option, _ = play(paused(**QUIET), "0 discard 5m")
    for seen_quiet, seen_option in zip(public(quiet), public(option), strict=True):
        seen_quiet, seen_option = dict(seen_quiet), dict(seen_option)
        # the discarded tile itself differs, in the river and the last discard
        for seen in (seen_quiet, seen_option):
            seen.pop("last_discard")
            seen["seats"] = [dict(s, river=None, concealed=None) for s in seen["seats"]]
        assert seen_quiet == seen_option


def test_an_added_kong_nobody_can_rob_opens_the_rob_window_with_only_pass():
    state, _ = play(
        paused(**ROB),
        "0 discard 5m",
        "1 pon 5m",
        "1 discard 7z",
        "0 pass",
        "0 discard 9m",
        "1 pass",
    )
    # a hand the kong cannot complete (swapped in: the scripted one waits on 5m)
    state = state.replace_seat(0, concealed=tuple(sorted(parse_tiles("11m99p357s112334z"))))
    state, events = play(state, "1 addkan 5m")
    assert (state.phase, state.turn, [str(a) for a in legal_actions(state, 0)]) == (
        "rob",
        0,
        ["pass"],
    )
    assert is_forced(state, 0)
    state, _ = play(state, "0 pass")
    assert [str(m) for m in state.seat(1).melds] == ["kan 5555m"]


def test_the_flag_survives_json_and_the_next_hand_and_old_states_read_without_it():
    state, _ = play(paused(**QUIET), "0 discard 4z")
    assert GameState.from_json(state.to_json()).claim_pause
    plain = scripted_hand("classic", **QUIET)
    assert "claim_pause" not in plain.to_dict()
    assert not GameState.from_dict(plain.to_dict()).claim_pause
    ended, _ = escape(new_hand("classic", "pause", claim_pause=True), 0)
    assert next_hand(ended, None, "pause-2").claim_pause
