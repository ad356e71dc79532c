"""A stage climb (RULES.md 5.3, 5.4.1): stakes in and out, the hand score, 三连庄拍分,
clearing and failing -- as rules, and as whole climbs played by bots on fixed seeds."""

import pytest
from test_fans_support import score

from mahjong.engine.bots import choose_for, get_bot
from mahjong.engine.errors import EngineError
from mahjong.engine.fans import score_win
from mahjong.engine.game import apply, legal_actions, new_hand, next_hand
from mahjong.engine.settlement import stage_hand_score
from mahjong.engine.stage_run import (
    CLEARED,
    COMPLETE,
    FAILED,
    IN_HAND,
    READY,
    StageRun,
    begin_hand,
    finish_hand,
    next_stage,
    retry,
    start,
)


def test_entering_a_stage_sets_its_starting_score():
    assert start(1) == StageRun(stage=1, score=1500)
    assert start(4).score == 10_000


def test_the_stake_goes_in_and_comes_back_on_a_win_or_a_draw():
    run = begin_hand(start(1))
    assert run.status == IN_HAND and run.score == 1200
    won = finish_hand(run, won=True, base_score=600, player_dealt=False)
    assert won.score == 1500 + 600 and won.status == READY and won.hands == 1
    drawn = finish_hand(run, drawn=True)
    assert drawn.score == 1500 and drawn.last_score == 0
    lost = finish_hand(run)  # the computer won: the stake is lost, nothing more
    assert lost.score == 1200


def test_the_hand_score_formula():
    result = score("stage", "123m456p789s1112z 2z")
    assert stage_hand_score(result) == result.total * (result.total + 1) * 50
    for f, expected in ((1, 100), (2, 300), (3, 600), (5, 1500), (8, 3600), (13, 9100)):
        assert f * (f + 1) * 50 == expected
    double = score("stage", "111z222z333z444z5z 5z tsumo")  # 大四喜 + 字一色 + 四暗刻
    assert len(set(double.yakuman)) >= 2
    assert stage_hand_score(double) == 10_000 * len(set(double.yakuman))


def test_three_dealer_wins_in_a_row_double_the_score():
    run = start(1)
    paid = []
    for _ in range(4):
        run = finish_hand(begin_hand(run), won=True, base_score=100, player_dealt=True)
        paid.append(run.last_score)
    assert paid == [100, 100, 200, 200] and run.streak == 4
    run = finish_hand(begin_hand(run), drawn=True)  # a draw keeps the streak
    assert run.streak == 4
    run = finish_hand(begin_hand(run))  # a computer win resets it
    assert run.streak == 0
    run = finish_hand(begin_hand(run), won=True, base_score=100, player_dealt=False)
    assert run.streak == 0 and run.last_score == 100


def test_clearing_and_the_last_stage():
    run = finish_hand(begin_hand(start(1)), won=True, base_score=3000)
    assert run.status == CLEARED and run.score == 4500
    with pytest.raises(EngineError):
        begin_hand(run)
    run = next_stage(run)
    assert run.stage == 2 and run.score == 3000 and run.hands == 1 and run.stage_hands == 0
    top = finish_hand(begin_hand(start(4)), won=True, base_score=40_000)
    assert top.status == COMPLETE
    with pytest.raises(EngineError):
        next_stage(top)


def test_failing_when_the_score_cannot_cover_the_stake():
    run = StageRun(stage=2, score=599)
    assert begin_hand(run).status == FAILED
    run = finish_hand(begin_hand(StageRun(stage=2, score=1000)))  # 400 left < 600
    assert run.status == FAILED
    again = retry(run)
    assert again.status == READY and again.score == 3000 and again.hands == 1


def test_the_run_round_trips_through_json():
    run = finish_hand(begin_hand(start(3)), won=True, base_score=300, player_dealt=True)
    assert StageRun.from_dict(run.to_dict()) == run
    with pytest.raises(EngineError):
        StageRun.from_dict({**run.to_dict(), "stage": 9})


# ----- whole climbs on fixed seeds --------------------------------------------------


def climb(stage, player_level, computer_level, name, max_hands=60):
    """Hands of one stage attempt, the human seat 0 played by ``player_level``, until
    the stage is cleared or failed; each hand replays to its recorded state."""
    run, state = start(stage), None
    while run.status == READY and run.hands < max_hands:
        run = begin_hand(run)
        if run.status == FAILED:
            break
        seed = f"{name}-{run.hands}"
        state = (
            new_hand("stage", seed, stage=stage) if state is None else next_hand(state, None, seed)
        )
        bots = [get_bot(player_level, seed), get_bot(computer_level, seed)]
        while not state.ended:
            seat = state.turn
            state, _ = apply(state, seat, choose_for(bots[seat], state, seat))
        outcome = state.outcome
        won = outcome.winner == 0 and outcome.context is not None
        base = stage_hand_score(score_win(state.ruleset, outcome.context)) if won else 0
        run = finish_hand(
            run,
            won=won,
            drawn=outcome.kind == "draw",
            base_score=base,
            player_dealt=state.dealer == 0,
        )
    return run


def test_a_stage_is_cleared_on_a_fixed_seed():
    run = climb(1, "strong", "random", "clear")
    assert run.status == CLEARED and run.score >= 4000 and run.stage_hands >= 2


def test_a_stage_is_failed_on_a_fixed_seed():
    run = climb(1, "random", "strong", "fail")
    assert run.status == FAILED and run.score < 300


def test_bots_ignore_the_offers_of_a_stage_four_hand():
    state = new_hand("stage", "bots", stage=4, stage_player=0)
    bots = [get_bot("strong", 1), get_bot("strong", 2)]
    while not state.ended:
        seat = state.turn
        action = choose_for(bots[seat], state, seat)
        assert action.verb not in ("exchange", "swap") and action in legal_actions(state, seat)
        state, _ = apply(state, seat, action)
