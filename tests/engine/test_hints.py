"""The waits hint (engine.hints): the waits a seat's hand can win on, counted from what
the seat sees, and only those that can reach the ruleset's minimum fan (gb's 8)."""

import random

import pytest

from mahjong.engine.actions import parse_action
from mahjong.engine.bots.seen import read_view
from mahjong.engine.game import apply, legal_actions, new_hand
from mahjong.engine.hints import unseen, waits_hint
from mahjong.engine.melds import parse_meld
from mahjong.engine.rulesets import RULESETS, get_ruleset
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.tiles import parse_tile, parse_tiles
from mahjong.engine.views import view

DEALER = "123m456p789s1112z3z"
OTHER = "55m888m456s33z999p"


def with_hand(state, seat, concealed, meld):
    return state.replace_seat(
        seat, concealed=tuple(parse_tiles(concealed)), melds=(parse_meld(meld),), drawn=None
    )


def test_a_gb_hand_whose_waits_all_score_under_eight_is_not_ready():
    """55m 888m 456s 西西 with a pon of 777m waits on 5m and 西 by shape; either win
    scores 4-5 fan, under gb's minimum of 8 (play-testing found it called ready)."""
    state = with_hand(
        scripted_hand("gb", dealer_hand=DEALER, other_hand=OTHER), 1, "55m888m456s33z", "pon 777m"
    )
    assert waits_hint(state, 1) is None


def test_a_gb_hint_keeps_only_the_waits_that_reach_eight():
    # a pon of 中 (箭刻) and the seat's own wind (West, 门风刻) on 3z reach 8; 5m does not
    state = with_hand(
        scripted_hand("gb", dealer_hand=DEALER, other_hand=OTHER), 1, "55m888m456s33z", "pon 777z"
    )
    assert waits_hint(state, 1) == {"ready": {"waits": [{"tile": "3z", "left": 2}], "left": 2}}


def test_a_discard_that_leaves_only_waits_under_the_minimum_is_not_offered():
    state = scripted_hand("gb", dealer_hand=DEALER, other_hand=OTHER)
    state = state.replace_seat(
        1,
        concealed=tuple(parse_tiles("55m888m456s33z9p")),
        melds=(parse_meld("pon 777m"),),
        drawn=None,
    )
    assert waits_hint(state, 1) is None


def test_without_a_minimum_every_wait_is_shown():
    state = with_hand(
        scripted_hand("classic", dealer_hand="123456789m11z22z3z", other_hand="444555666777z1m"),
        1,
        "55m888m456s33z",
        "pon 777m",
    )
    assert [w["tile"] for w in waits_hint(state, 1)["ready"]["waits"]] == ["5m", "3z"]


def test_the_haidi_draws_shown_face_up_are_not_unseen():
    """RULES.md 3.11.5: the 海底捞月 draws are shown face up, the one being decided too;
    the hint counted them as tiles still to come."""
    state = scripted_hand(
        "classic",
        dealer_hand="11122m59m4445566z",
        other_hand="67m123m111z222z33z",
        reserve="9m8m3z",
    )
    state = state.evolve(live=(), unused=state.live)
    state, _ = apply(state, 0, parse_action("discard 9m"))
    assert state.phase == "haidi" and state.haidi_seat == 1
    nine, eight = parse_tile("9m"), parse_tile("8m")
    # seat 0 sees its own 9m (gone to its river) and the shown 9m; the offered 8m
    assert unseen(state, 0)[nine] == 4 - 2 and unseen(state, 0)[eight] == 4 - 1
    assert unseen(state, 1)[eight] == 4 - 1  # seat 1's own draw, counted once


@pytest.mark.parametrize("slug", sorted(RULESETS))
@pytest.mark.parametrize("seed", range(12))
def test_the_hint_and_the_bots_count_the_same_unseen_tiles(slug, seed):
    """Two readings of what a seat cannot see, the hint's from the state and the bots'
    from the seat's view: equal at every position of seeded hands played to the end."""
    rs = get_ruleset(slug)
    state = new_hand(slug, seed)
    rng = random.Random(seed)
    while state.phase != "ended":
        for seat in (0, 1):
            from_view = read_view(view(state, seat), rs).unseen
            hint = unseen(state, seat)
            assert [hint[k] for k in rs.kinds] == [from_view[k] for k in rs.kinds], state.phase
        actions = legal_actions(state, state.turn)
        state, _ = apply(state, state.turn, rng.choice(actions))
