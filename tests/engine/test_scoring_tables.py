"""The tables and memo keys that make gb scoring fast give what the plain computations
give: set-combination fans per pattern of sets, the splits of a number suit, the kinds
that complete one, the hand's tile facts from suit counts."""

import itertools
import random

import pytest

from mahjong.engine import hand, hand_readings, scoring_tables, suit_tables
from mahjong.engine.fans import combos
from mahjong.engine.fans.facts import TileFacts


def test_pung_fans_depend_only_on_the_pattern_of_the_pungs():
    for size in (2, 3, 4):
        for pungs in itertools.combinations(range(34), size):
            assert combos.pung_fans(pungs) == combos.pung_fans(combos._pung_pattern(pungs)), pungs


def test_chow_fans_depend_only_on_the_pattern_of_the_chows():
    starts = [9 * suit + rank for suit in range(3) for rank in range(7)]
    for size in (2, 3, 4):
        for chows in itertools.combinations_with_replacement(starts, size):
            assert combos.chow_fans(chows) == combos.chow_fans(combos._chow_pattern(chows)), chows


def _suit_counts(key: int) -> list[int]:
    return [key // 5**i % 5 for i in range(9)]


@pytest.mark.parametrize("suit", [0, 2])
def test_the_split_table_is_the_search(suit):
    rng = random.Random(suit)
    keys = list(hand_readings._number_splits())
    keys = rng.sample(keys, 3000) + [rng.randrange(5**9) for _ in range(3000)]
    for key in keys:
        held = _suit_counts(key)
        if sum(held) > 14:
            continue
        counts = [0] * 34
        counts[9 * suit : 9 * suit + 9] = held
        found: set = set()
        size = sum(held)
        if size % 3 != 1:
            hand_readings._plain(counts, 9 * suit, size // 3, size % 3 == 2, [], found)
        hand_readings._SPLITS[suit].pop(key, None)
        assert hand_readings.suit_splits(suit, key) == tuple(sorted(found)), held


def test_the_completing_kinds_are_those_a_tile_completes():
    rng = random.Random(7)
    keys = rng.sample(list(hand_readings.number_suit_completing()), 3000)
    keys += [rng.randrange(5**9) for _ in range(3000)]
    for key in keys:
        held = _suit_counts(key)
        size = sum(held)
        if size >= 14:
            continue
        expected = []
        for i in range(9):
            if held[i] < 4:
                done, pair = suit_tables.suit_complete(1, key + 5**i, size + 1)
                if done:
                    expected.append((9 + i, pair))
        hand._COMPLETING[1].pop(key, None)
        assert hand._completing(1, key, size) == tuple(expected), held


def test_tile_facts_of_the_hand_are_those_of_its_blocks():
    from test_gb_oracle_hands import random_deal

    from mahjong.engine.rulesets import RULESETS

    rng = random.Random(11)
    for _ in range(500):
        ctx = random_deal(rng).ctx
        for reading in hand.readings(ctx.hand, ctx.melds, ctx.win, RULESETS["gb"]):
            of_hand, of_blocks = TileFacts.of_hand(ctx), TileFacts.of_blocks(reading.blocks)
            assert (of_hand.bits, of_hand.counts, of_hand.hogs) == (
                of_blocks.bits,
                of_blocks.counts,
                of_blocks.hogs,
            )


@pytest.mark.parametrize(
    "slug, line, message",
    [
        (
            "gb",
            '"hand": "1111m234p567s789s", "win": "1m"',
            "5 copies of 1m in hand, win and melds: a set has only 4",
        ),
        ("gb", '"hand": "111m234p567s789s1f", "win": "1m"', "1f is not in the gb tile set"),
        (
            "gb",
            '"hand": "111m234p567s8s", "win": "8s", "melds": ["pon 888s", "kan 8888s"]',
            "hand and melds make 16 tiles",
        ),
        ("tiao72", '"hand": "1112345678999m", "win": "5m"', "1m is not in the tiao72 tile set"),
        (
            "gb",
            '"hand": "111m234p567s8s", "win": "1m", "melds": ["pon 111m"]',
            "7 copies of 1m in hand, win and melds: a set has only 4",
        ),
    ],
)
def test_the_tile_checks_name_what_is_wrong(slug, line, message):
    import io
    import json

    from mahjong.engine.cli.jsonlines import serve
    from mahjong.engine.cli.score import answer
    from mahjong.engine.rulesets import get_ruleset

    out = io.StringIO()
    serve(io.StringIO("{" + line + "}\n"), out, lambda r: answer(r, get_ruleset(slug)))
    assert message in json.loads(out.getvalue())["error"]


@pytest.mark.skipif(not scoring_tables.TABLE_PATH.exists(), reason="no shipped tables")
def test_the_shipped_tables_are_what_the_builders_build(monkeypatch):
    monkeypatch.setattr(scoring_tables, "_parts", None)  # read the file afresh
    splits = hand_readings.build_number_splits()
    assert scoring_tables.load("splits") == splits
    completing = hand_readings.build_number_suit_completing(splits)
    assert scoring_tables.load("completing") == completing
    chows, chow_patterns, pungs, pung_patterns = {}, {}, {}, {}  # built as on first use
    for sets in combos.chow_sets():
        combos._kept(chows, chow_patterns, sets, combos._chow_pattern, combos.chow_fans)
    for sets in combos.pung_sets():
        combos._kept(pungs, pung_patterns, sets, combos._pung_pattern, combos.pung_fans)
    assert (len(chows), len(pungs)) == (12650, 52956)
    monkeypatch.setattr(combos, "_CHOWS", {})
    monkeypatch.setattr(combos, "_PUNGS", {})
    combos.prebuild()  # from the shipped part
    assert combos._CHOWS == chows and combos._PUNGS == pungs


def test_without_the_shipped_tables_the_scorer_builds_them(monkeypatch):
    """A missing file means the tables are built, with the same readings and fans."""
    monkeypatch.setattr(scoring_tables, "TABLE_PATH", scoring_tables.TABLE_PATH.with_name("none"))
    monkeypatch.setattr(scoring_tables, "_parts", None)
    for name in ("_NUMBER_SPLITS", "_NUMBER_COMPLETING"):
        monkeypatch.setattr(hand_readings, name, {})
    assert hand_readings._number_splits() == hand_readings.build_number_splits()
    assert len(hand_readings.number_suit_completing()) > 60_000
