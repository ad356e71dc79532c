"""The scorer's shortcuts agree with hand analysis: its readings are hand.decompose's
(without the wait labels, which the scorer decides itself), and its one-winning-kind
test says what hand.waits says."""

import random

import pytest

from mahjong.engine import hand
from mahjong.engine.fans.readings import has_one_winning_kind, readings_of
from mahjong.engine.rulesets import RULESETS
from test_gb_oracle_hands import random_deal


def deals(n, seed):
    rng = random.Random(seed)
    return [random_deal(rng).ctx for _ in range(n)]


def shapes(decomps):
    return sorted(repr((d.form, d.blocks, d.win_block)) for d in decomps)


@pytest.mark.parametrize("ctx", deals(150, 3))
def test_readings_are_hand_analysis_readings(ctx):
    gb = RULESETS["gb"]
    expected = hand.decompose(list(ctx.hand), list(ctx.melds), ctx.win, gb, tsumo=ctx.tsumo)
    assert shapes(readings_of(gb, ctx)) == shapes(expected)


@pytest.mark.parametrize("ctx", deals(300, 4))
def test_one_winning_kind_agrees_with_the_waits(ctx):
    gb = RULESETS["gb"]
    waits = hand.waits(list(ctx.hand), list(ctx.melds), gb)
    assert has_one_winning_kind(gb, ctx, readings_of(gb, ctx)) == (len(waits) == 1)
