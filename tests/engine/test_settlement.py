"""Settlement per ruleset: multipliers, rake rounding, 防以小博大, escape, wenzhou levels
and multipliers, stage hand scores, balances never below zero."""

from dataclasses import replace

import pytest

from mahjong.engine.errors import EngineError
from mahjong.engine.fans import ScoreResult
from mahjong.engine.rulesets import RULESETS, get_ruleset
from mahjong.engine.settlement import HOUSE, Table, settle, stage_hand_score, wenzhou_base
from mahjong.engine.shapes import DISCARD_WIN, DRAW, ESCAPE, SELF_DRAW, Outcome

SELF_DRAWN = Outcome(SELF_DRAW, winner=0, loser=1)
ON_DISCARD = Outcome(DISCARD_WIN, winner=0, loser=1)


def won(total, **fields):
    return ScoreResult(is_win=True, total=total, **fields)


@pytest.mark.parametrize(
    "outcome,points",
    [
        (SELF_DRAWN, 5 * 3 * 2),
        (ON_DISCARD, 5 * 1 * 2),
        (replace(ON_DISCARD, robbed_kong=True), 5 * 3 * 2),  # a robbed kong pays as a self-draw
    ],
)
def test_classic_pays_basic_times_three_on_self_draw_and_once_on_discard(outcome, points):
    result = settle(RULESETS["classic"], outcome, won(5), Table(base=2, per_point=50))
    assert result.points == points
    assert result.delta(0) == points * 50 and result.delta(1) == -points * 50


def test_overridden_multipliers_are_used():
    rs = get_ruleset("classic", {"self_draw_multiplier": 2})
    assert settle(rs, SELF_DRAWN, won(4)).points == 8


def test_gb_pays_fan_plus_eight_either_way():
    for outcome in (SELF_DRAWN, ON_DISCARD):
        assert settle(RULESETS["gb"], outcome, won(12), Table(base=3)).points == (12 + 8) * 3


def test_tiao72_pays_fan_times_base():
    assert settle(RULESETS["tiao72"], ON_DISCARD, won(30), Table(base=2)).points == 60


@pytest.mark.parametrize(
    "fan,bring_ins,paid,rake",
    [
        (30, (1000, 1000), 300, 15),  # X = A × B = 300, rake floor(5%) = 15
        (31, (1000, 1000), 310, 15),  # 15.5 rounds down
        (200, (1000, 80), 80, 4),  # 防以小博大: the winner brought 80, wins at most 80
        (200, (80, 1000), 80, 4),  # ... and a loser who brought 80 loses at most 80
        (1, (1000, 1000), 10, 0),  # 5% of 10 rounds down to nothing
    ],
)
def test_quesheng_caps_by_bring_ins_then_takes_the_rake(fan, bring_ins, paid, rake):
    table = Table(base=10, bring_ins=(bring_ins[1], bring_ins[0]))  # seat 0 wins, 1 loses
    result = settle(RULESETS["quesheng"], ON_DISCARD, won(fan), table)
    assert result.delta(1) == -paid
    assert result.delta(0) == paid - rake and result.rake == rake


def test_quesheng_total_already_carries_the_pass_doubling():
    # score_win doubles per 过胡; settlement takes that A as is
    assert settle(RULESETS["quesheng"], ON_DISCARD, won(28 * 4), Table(base=1)).points == 112


@pytest.mark.parametrize("streak,base", [(0, 10), (1, 20), (2, 30), (3, 40), (7, 40)])
def test_wenzhou_progressive_base(streak, base):
    assert wenzhou_base(RULESETS["wenzhou"], streak) == base


def test_wenzhou_pays_base_times_multiplier():
    result = settle(
        RULESETS["wenzhou"], SELF_DRAWN, won(8, multiplier=8, soft=False), Table(dealer_streak=2)
    )
    assert result.points == 30 * 8


def test_wenzhou_takes_a_given_base_level():
    result = settle(
        RULESETS["wenzhou"],
        ON_DISCARD,
        won(2, multiplier=2, soft=True),
        Table(base=40, per_point=3),
    )
    assert result.points == 80 and result.delta(0) == 240


@pytest.mark.parametrize("escaper,dealer,points", [(1, 1, 20 * 16), (1, 0, 20 * 8)])
def test_wenzhou_escape_costs_sixteen_or_eight_bases(escaper, dealer, points):
    outcome = Outcome(ESCAPE, escaper=escaper)
    result = settle(RULESETS["wenzhou"], outcome, table=Table(dealer=dealer, dealer_streak=1))
    assert result.points == points and result.delta(escaper) == -points


@pytest.mark.parametrize("slug,points", [("classic", 13 * 2), ("tiao72", 60 * 2), ("gb", 96 * 2)])
def test_escape_penalties(slug, points):
    result = settle(RULESETS[slug], Outcome(ESCAPE, escaper=0), table=Table(base=2))
    assert result.delta(0) == -points and result.delta(1) == points


def test_quesheng_escape_is_a_loss_to_88_fan_with_cap_and_rake():
    result = settle(
        RULESETS["quesheng"],
        Outcome(ESCAPE, escaper=1),
        table=Table(base=10, bring_ins=(500, 2000)),
    )
    assert result.delta(1) == -500 and result.rake == 25


def test_balances_never_go_below_zero():
    result = settle(RULESETS["gb"], ON_DISCARD, won(80), Table(base=10, balances=(0, 300)))
    assert result.delta(1) == -300


def test_a_drawn_hand_moves_nothing():
    assert settle(RULESETS["classic"], Outcome(DRAW)).transfers == ()


@pytest.mark.parametrize(
    "fan,score", [(1, 100), (2, 300), (3, 600), (5, 1500), (8, 3600), (13, 9100)]
)
def test_stage_hand_score_is_fan_times_fan_plus_one_times_50(fan, score):
    assert stage_hand_score(won(fan)) == score


def test_stage_yakuman_score_ten_thousand_each_and_streaks_double():
    two = won(13, yakuman=("da_san_yuan", "si_an_ke"))
    assert stage_hand_score(two) == 20_000
    assert stage_hand_score(won(2), dealer_streak=3) == 600


def test_stage_returns_the_stake_with_the_winnings_from_the_house():
    result = settle(RULESETS["stage"], SELF_DRAWN, won(3), Table(stake=300))
    assert result.transfers[0].payer == HOUSE and result.delta(0) == 300 + 600
    draw = settle(RULESETS["stage"], Outcome(DRAW), table=Table(stake=300))
    assert draw.delta(0) == 300


def test_a_stage_computer_win_pays_nothing_more():
    computer = Outcome(SELF_DRAW, winner=1, loser=0)
    assert settle(RULESETS["stage"], computer, won(5), Table(stake=300)).transfers == ()


def test_a_win_needs_a_winning_score():
    with pytest.raises(EngineError):
        settle(RULESETS["gb"], ON_DISCARD, ScoreResult(is_win=False))
