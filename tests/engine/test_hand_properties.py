"""Invariants of hand analysis (hypothesis), checked against a slow reference written
independently of the per-suit tables."""

from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong.engine.hand import decompose, is_win, ready_discards, shanten, waits
from mahjong.engine.rulesets import RULESETS
from mahjong.engine.tiles import YAOJIU

KINDS = range(34)
CHOWS = [(k, k + 1, k + 2) for k in range(27) if k % 9 <= 6]
SETS = CHOWS + [(k, k, k) for k in KINDS]


# ----- strategies ------------------------------------------------------------------------


@st.composite
def near_complete(draw, sets: int, missing: int):
    """``sets`` sets + a pair, then ``missing`` + 1 tiles removed and ``missing``
    random tiles added: lands on ready and nearly ready hands far more often than
    uniform sampling."""
    tiles = [k for _ in range(sets) for k in draw(st.sampled_from(SETS))]
    tiles += [draw(st.sampled_from(KINDS))] * 2
    for _ in range(missing + 1):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    tiles += draw(st.lists(st.sampled_from(KINDS), min_size=missing, max_size=missing))
    return sorted(tiles)


def hands(sets: int):
    uniform = st.lists(st.sampled_from(KINDS), min_size=3 * sets + 1, max_size=3 * sets + 1)
    uniform = uniform.filter(lambda t: max(Counter(t).values()) <= 4)
    near = st.one_of(near_complete(sets, 0), near_complete(sets, 1))
    return st.one_of(uniform, near.filter(lambda t: max(Counter(t).values()) <= 4))


def add(tiles, kind):
    return sorted(list(tiles) + [kind])


def dead(tiles, kind):
    return tiles.count(kind) >= 4


# ----- the slow reference -------------------------------------------------------------


def ref_standard(counts, sets, pair=True):
    """Plain recursion: take the smallest tile as pair, pung or chow start."""
    kind = next((k for k in KINDS if counts[k]), None)
    if kind is None:
        return sets == 0 and not pair
    options = []
    if pair and counts[kind] >= 2:
        options.append(((kind, kind), 0, False))
    if sets and counts[kind] >= 3:
        options.append(((kind,) * 3, 1, pair))
    if sets and (kind, kind + 1, kind + 2) in CHOWS and counts[kind + 1] and counts[kind + 2]:
        options.append(((kind, kind + 1, kind + 2), 1, pair))
    for group, used, still in options:
        for k in group:
            counts[k] -= 1
        found = ref_standard(counts, sets - used, still)
        for k in group:
            counts[k] += 1
        if found:
            return True
    return False


def ref_is_win(tiles):
    counts = Counter(tiles)
    if ref_standard([counts[k] for k in KINDS], (len(tiles) - 2) // 3):
        return True
    if len(tiles) != 14:
        return False
    seven = all(n % 2 == 0 for n in counts.values())
    orphans = set(counts) == set(YAOJIU)
    return seven or orphans


def ref_shanten_by_distance(tiles, melded=()):
    """min over complete hands H (kinds <= 4 times, counting ``melded`` tiles too) of
    |H - tiles|, minus one; only for small hands (one or two sets)."""
    sets = (len(tiles) - 1) // 3
    held = Counter(tiles)
    outside = Counter(melded)
    # Groups sharing no kind with the hand all cost their full size: one of each will do.
    touching = [g for g in SETS if held.keys() & set(g)]
    spare = next(g for g in SETS if not (held + outside).keys() & set(g) and g[0] == g[1])
    best = 99
    for groups in combinations_with_replacement(touching + [spare] * sets, sets):
        base = Counter(k for g in groups for k in g)
        for pair in list(held) + [
            next(k for k in KINDS if k not in held + outside and k != spare[0])
        ]:
            target = base + Counter({pair: 2})
            if max((target + outside).values()) > 4:
                continue
            best = min(best, sum((target - held).values()))
    return best - 1


# ----- properties -------------------------------------------------------------------------


@given(hands(4))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_waits_are_exactly_the_live_kinds_that_complete_the_hand(tiles):
    expected = [k for k in KINDS if not dead(tiles, k) and ref_is_win(add(tiles, k))]
    assert waits(tiles) == expected
    for kind in KINDS:
        won = is_win(add(tiles, kind), (), None) if not dead(tiles, kind) else False
        assert won == (kind in expected)
        if not dead(tiles, kind):
            assert bool(decompose(tiles, (), kind, None)) == won


@given(hands(4), st.sampled_from(KINDS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_shanten_minus_one_is_a_win_and_zero_is_ready(tiles, kind):
    assert (shanten(tiles) == 0) == bool(waits(tiles))
    if tiles.count(kind) < 4:
        full = add(tiles, kind)
        assert (shanten(full) == -1) == is_win(full, (), None) == ref_is_win(full)
        assert (shanten(full) <= 0) == bool(ready_discards(full, (), None))


@given(hands(4), st.sampled_from(KINDS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_one_tile_changes_shanten_by_at_most_one(tiles, kind):
    if tiles.count(kind) < 4:
        before, after = shanten(tiles), shanten(add(tiles, kind))
        assert before - 1 <= after <= before


@pytest.mark.parametrize("sets", [1, 2])
@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_shanten_agrees_with_brute_force_on_small_hands(sets, data):
    tiles = data.draw(hands(sets))
    expected = ref_shanten_by_distance(tiles)
    if expected == 0 and not waits(tiles):
        expected = 1  # only dead waits: not ready
    assert shanten(tiles) == expected


@given(hands(4))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_shanten_is_one_more_than_the_best_exchange(tiles):
    """The definition: a hand n from ready has an exchange (draw one, discard one) that
    brings it to n - 1, and none that does better."""
    n = shanten(tiles)
    if n <= 0:
        return
    best = min(
        shanten(_exchange(tiles, draw, discard))
        for draw in KINDS
        if tiles.count(draw) < 4
        for discard in set(tiles)
        if discard != draw
    )
    assert best == n - 1


def _exchange(tiles, draw, discard):
    out = list(tiles) + [draw]
    out.remove(discard)
    return out


@given(hands(4), st.sampled_from(KINDS), st.booleans())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_every_decomposition_accounts_for_every_tile(tiles, win, tsumo):
    if tiles.count(win) >= 4:
        return
    for d in decompose(tiles, (), win, None, tsumo=tsumo):
        assert sorted(k for b in d.blocks for k in b.tiles) == add(tiles, win)
        assert win in d.blocks[d.win_block].tiles


WENZHOU = RULESETS["wenzhou"]


@given(hands(5), st.sampled_from(KINDS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_wenzhou_waits_complete_the_hand_with_wilds(tiles, wild):
    found = waits(tiles, (), WENZHOU, wild)
    assert (shanten(tiles, (), WENZHOU, wild) == 0) == bool(found)
    for kind in found:
        assert is_win(add(tiles, kind), (), WENZHOU, wild)
        assert decompose(tiles, (), kind, WENZHOU, wild=wild)


# ----- gb forms against PyMahjongGB (the official-rules library) ---------------------

GB_NAMES = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)
GB_FORMS = [  # our form, PyMahjongGB's shanten function for it
    ("standard", "RegularShanten"),
    ("seven_pairs", "SevenPairsShanten"),
    ("thirteen_orphans", "ThirteenOrphansShanten"),
    ("quan_bu_kao", "HonorsAndKnittedTilesShanten"),
    ("zu_he_long", "KnittedStraightShanten"),
]


@st.composite
def knitted_leaning(draw, size):
    """Mostly knitted and honor tiles: where the gb special forms are close."""
    from mahjong.engine.hand_forms import KNITTED

    pool = sorted(draw(st.sampled_from(KNITTED))) + list(range(27, 34))
    tiles = draw(st.lists(st.sampled_from(pool), min_size=size - 2, max_size=size - 2, unique=True))
    return sorted(tiles + draw(st.lists(st.sampled_from(KINDS), min_size=2, max_size=2)))


@given(data=st.data())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_each_gb_form_agrees_with_pymahjonggb(data):
    """13-tile hands (the library's shanten takes the hand before the draw)."""
    mahjong_gb = pytest.importorskip("MahjongGB")
    from mahjong.engine import hand_forms

    strategy = st.one_of(knitted_leaning(13), hands(4))
    # Held four times, a kind would need a fifth copy there: we never count on one,
    # PyMahjongGB does (its "ready" hands may wait on a dead tile only).
    tiles = data.draw(strategy.filter(lambda t: max(Counter(t).values()) <= 3))
    names = tuple(GB_NAMES[k] for k in tiles)
    view = hand_forms.view(tiles, ())
    for ours, theirs in GB_FORMS:
        assert hand_forms.DISTANCES[ours](view) - 1 == getattr(mahjong_gb, theirs)(names)[0], ours


# ----- special forms: waits found by the shortcuts == every kind tried ---------------


@pytest.mark.parametrize("slug", ["gb", "stage"])
@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_special_form_waits_are_every_kind_that_wins(slug, data):
    ruleset = RULESETS[slug]
    strategy = st.one_of(
        knitted_leaning(13),
        hands(4),
        st.lists(st.sampled_from([19, 20, 21, 23, 25, 32]), min_size=13, max_size=13),
    )
    tiles = data.draw(strategy.filter(lambda t: max(Counter(t).values()) <= 4))
    expected = [
        k for k in ruleset.kinds if not dead(tiles, k) and is_win(add(tiles, k), (), ruleset)
    ]
    assert waits(tiles, (), ruleset) == expected
    assert (shanten(tiles, (), ruleset) == 0) == bool(expected)


# ----- melds -----------------------------------------------------------------------------


@st.composite
def melded(draw, sets=3):
    """``sets`` concealed sets + a pair with one tile out, and one declared meld; the
    meld often shares kinds with the hand."""
    from mahjong.engine.melds import Meld

    tiles = draw(hands(sets))
    near = [g for g in SETS if set(g) & set(tiles)]
    group = draw(st.sampled_from(near) | st.sampled_from(SETS))
    kind = "chi" if group[0] != group[1] else draw(st.sampled_from(["pon", "kan", "ankan"]))
    meld = Meld(kind, tuple(group) + ((group[0],) if kind in ("kan", "ankan") else ()))
    return tiles, (meld,)


@given(melded())
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_waits_with_a_meld_count_its_tiles_as_held(case):
    tiles, melds = case
    held = Counter(tiles) + Counter(melds[0].tiles)
    if max(held.values()) > 4:
        return
    expected = [k for k in KINDS if held[k] < 4 and ref_is_win(add(tiles, k))]
    assert waits(tiles, melds) == expected
    assert (shanten(tiles, melds) == 0) == bool(expected)


@pytest.mark.parametrize("sets", [1, 2])
@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_shanten_beside_a_meld_agrees_with_brute_force(sets, data):
    tiles, melds = data.draw(melded(sets))
    meld_tiles = melds[0].tiles
    if max((Counter(tiles) + Counter(meld_tiles)).values()) > 4:
        return
    expected = ref_shanten_by_distance(tiles, meld_tiles)
    if expected == 0 and not waits(tiles, melds):
        expected = 1
    assert shanten(tiles, melds) == expected
