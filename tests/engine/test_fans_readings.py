"""What the scorer asks of hand analysis agrees with the full answers: ``hand.readings``
are ``hand.decompose``'s readings (without the single-kind wait labels, which the scorer
decides itself), and ``hand.has_one_winning_kind`` says what ``hand.waits`` says."""

import random

import pytest
from test_gb_oracle_hands import random_deal

from mahjong.engine import hand
from mahjong.engine.rulesets import RULESETS


def deals(n, seed):
    rng = random.Random(seed)
    return [random_deal(rng).ctx for _ in range(n)]


def shapes(decomps):
    return sorted(repr((d.form, d.blocks, d.win_block)) for d in decomps)


@pytest.mark.parametrize("ctx", deals(150, 3))
def test_readings_are_hand_analysis_readings(ctx):
    gb = RULESETS["gb"]
    expected = hand.decompose(list(ctx.hand), list(ctx.melds), ctx.win, gb, tsumo=ctx.tsumo)
    found = hand.readings(ctx.hand, ctx.melds, ctx.win, gb, tsumo=ctx.tsumo)
    assert shapes(found) == shapes(expected)


@pytest.mark.parametrize("ctx", deals(300, 4))
def test_one_winning_kind_agrees_with_the_waits(ctx):
    gb = RULESETS["gb"]
    waits = hand.waits(list(ctx.hand), list(ctx.melds), gb)
    found = hand.readings(ctx.hand, ctx.melds, ctx.win, gb, tsumo=ctx.tsumo)
    assert hand.has_one_winning_kind(ctx.hand, ctx.melds, ctx.win, gb) == (len(waits) == 1)
    assert hand.has_one_winning_kind(ctx.hand, ctx.melds, ctx.win, gb, readings=found) == (
        len(waits) == 1
    )


@pytest.mark.parametrize("ctx", deals(300, 5))
def test_the_plain_search_finds_what_the_wild_search_finds(ctx):
    from mahjong.engine import hand_readings

    counts = [0] * 34
    for kind in (*ctx.hand, ctx.win):
        counts[kind] += 1
    sets = len(ctx.hand) // 3
    # without wilds: each suit's splits combined, one suit holding the pair
    keys, sizes = hand_readings._keys_and_sizes(counts)
    plain = set(hand_readings.standard_splits(keys, sizes))
    assert plain == hand_readings.standard(counts, 0, sets, None)


@pytest.mark.parametrize("slug", ["classic", "tiao72", "quesheng"])
def test_one_winning_kind_agrees_with_the_waits_in_other_rulesets(slug):
    ruleset = RULESETS[slug]
    for ctx in deals(200, 6):
        if not hand.readings(ctx.hand, ctx.melds, ctx.win, ruleset) or not set(ctx.hand) <= set(
            ruleset.kinds
        ):
            continue
        waits = hand.waits(list(ctx.hand), list(ctx.melds), ruleset)
        assert hand.has_one_winning_kind(ctx.hand, ctx.melds, ctx.win, ruleset) == (
            len(waits) == 1
        ), ctx
