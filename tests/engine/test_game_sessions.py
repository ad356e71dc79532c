"""From hand to hand: dealer rules, streaks, gb's round winds and match, wenzhou's
progressive base (RULES.md 3.2.1, 3.13.3, 6.1, 8.1, 8.5, 9.5)."""

import pytest

from mahjong.engine.game import escape, new_hand, next_hand
from mahjong.engine.rulesets import RULESETS
from mahjong.engine.session import base_points, match_over, next_session
from mahjong.engine.shapes import DISCARD_WIN, DRAW, ESCAPE, SELF_DRAW, Outcome
from mahjong.engine.state import Session

SEED = b"next"


def win_by(seat):
    return Outcome(SELF_DRAW, winner=seat, loser=1 - seat)


@pytest.mark.parametrize("slug", ["classic", "stage", "tiao72", "wenzhou"])
@pytest.mark.parametrize(
    "outcome,dealer",
    [
        (win_by(0), 0),
        (win_by(1), 1),
        (Outcome(DRAW), 0),
        (Outcome(ESCAPE, winner=1, loser=0, escaper=0), 1),  # as if the opponent had won
        (Outcome(DISCARD_WIN, winner=1, loser=0), 1),
    ],
)
def test_the_winner_deals_next_and_a_draw_keeps_the_dealer(slug, outcome, dealer):
    session = next_session(RULESETS[slug], Session(dealer=0), outcome, SEED)
    assert session.dealer == dealer and session.hand_number == 2
    assert session.streak == (1 if dealer == 0 else 0)


def test_quesheng_draws_the_dealer_at_random_from_each_hands_seed():
    rs = RULESETS["quesheng"]
    dealers = {
        next_session(rs, Session(dealer=0), win_by(0), n.to_bytes(2, "big")).dealer
        for n in range(30)
    }
    assert dealers == {0, 1}


def test_gb_alternates_the_deal_and_plays_eight_hand_matches_with_round_winds():
    rs = RULESETS["gb"]
    state = new_hand(rs, SEED, dealer=0)
    seen = []
    for number in range(1, 10):
        session = state.session
        seen.append((session.hand_number, session.dealer, session.round_wind))
        assert match_over(rs, session) == (number == 8)
        state, _ = escape(state, 0)  # any end will do
        state = next_hand(state, state.outcome, number.to_bytes(2, "big"))
    winds = [w for _, _, w in seen]
    assert winds == [27, 27, 28, 28, 29, 29, 30, 30, 27]  # 东东南南西西北北, then 东 again
    assert [d for _, d, _ in seen] == [0, 1, 0, 1, 0, 1, 0, 1, 0]


def test_wenzhou_base_rises_on_dealer_wins_stays_on_draws_and_resets_when_the_deal_passes():
    rs = RULESETS["wenzhou"]
    session = Session(dealer=0)
    levels = []
    for outcome in (win_by(0), Outcome(DRAW), win_by(0), win_by(0), win_by(0), win_by(1)):
        session = next_session(rs, session, outcome, SEED)
        levels.append(base_points(rs, session))
    assert levels == [20, 20, 30, 40, 40, 10]


def test_next_hand_starts_a_fresh_hand_with_a_new_commitment_and_carries_scores():
    first = new_hand("classic", SEED, dealer=1)
    ended, _ = escape(first, 1)
    second = next_hand(ended, None, b"second", scores=(13, -13))
    assert (second.session.hand_number, second.dealer) == (2, 0)
    assert second.commitment != first.commitment and second.session.scores == (13, -13)
    assert second.phase == "turn" and second.turn == 0


def test_next_hand_refuses_a_hand_that_has_not_ended():
    from mahjong.engine.errors import IllegalAction

    with pytest.raises(IllegalAction):
        next_hand(new_hand("classic", SEED), None, b"x")


def test_the_first_dealer_is_random_unless_fixed():
    dealers = {new_hand("classic", n.to_bytes(2, "big")).dealer for n in range(30)}
    assert dealers == {0, 1}
    assert new_hand("classic", SEED, dealer=1).dealer == 1
