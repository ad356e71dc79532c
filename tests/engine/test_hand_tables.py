"""The per-suit tables behind shanten: the shipped vectors must match the programme."""

import random

import pytest

from mahjong.engine import suit_table_build, suit_tables
from mahjong.engine.suit_tables import POW5, closed, decode


def random_key(rng, tiles):
    counts = [0] * 9
    while sum(counts) < tiles:
        kind = rng.randrange(9)
        if counts[kind] < 4:
            counts[kind] += 1
    return sum(c * POW5[i] for i, c in enumerate(counts))


@pytest.mark.skipif(not suit_tables.TABLE_PATH.exists(), reason="no shipped table")
@pytest.mark.parametrize("tiles", [1, 3, 5, 8, 11, 14])
def test_the_shipped_table_agrees_with_the_programme(tiles):
    rng = random.Random(tiles)
    for _ in range(40):
        key = random_key(rng, tiles)
        assert suit_tables._table[key], f"{decode(key, 9)} missing from the table"
        expected = closed(suit_tables._number_vector(decode(key, 9)))
        assert suit_tables._vectors[suit_tables.vector(0, key)] == expected


def test_the_builder_walks_every_small_suit():
    """A 3-tile build: every key it holds gets the programme's vector."""
    import zlib
    from array import array

    data = zlib.decompress(suit_table_build.build(3))
    count = array("I", data[:4])[0]
    vectors = [tuple(data[4 + i * 12 : 16 + i * 12]) for i in range(count)]
    index = array("H", data[4 + count * 12 :])
    built = [key for key in range(5**9) if index[key]]
    assert len(built) == 220  # count vectors of 9 kinds holding 0 to 3 tiles
    for key in built[::7]:
        assert vectors[index[key] - 1] == closed(suit_tables._number_vector(decode(key, 9)))


@pytest.mark.parametrize(
    "counts,splits",
    [
        ((1, 1, 1, 0, 0, 0, 0, 0, 0), True),
        ((3, 1, 1, 1, 1, 1, 1, 1, 3), False),
        ((3, 1, 1, 1, 2, 1, 1, 1, 3), True),
        ((4, 4, 4, 2, 0, 0, 0, 0, 0), True),
        ((2, 2, 2, 2, 2, 2, 2, 0, 0), True),  # 123 123 456 456 + 77
        ((0, 0, 0, 0, 0, 0, 0, 1, 1), False),
        ((4, 0, 0, 0, 0, 0, 0, 0, 0), False),
        ((0, 0, 0, 0, 0, 0, 1, 1, 1), True),
    ],
)
def test_a_suit_is_complete_when_its_vector_covers_every_tile(counts, splits):
    """Sets only when the suit holds 3n tiles (the pair is then 11z), sets + the pair
    when it holds 3n + 2."""
    key, size = sum(c * POW5[i] for i, c in enumerate(counts)), sum(counts)
    honors = 0 if size % 3 == 2 else 2
    assert suit_tables.standard_complete([key, 0, 0, honors], [size, 0, 0, honors]) == splits


def whole_suit_capped(counts, caps):
    """The capped programme over the whole suit, no clusters: what they must give."""
    states = {(0, 0, 0, 0): 0}
    for i, held in enumerate(counts):
        most_chows = max(counts[i : i + 3]) if i <= 6 else 0
        states = suit_tables.step(states, held, most_chows, caps[i])
    return closed(suit_tables.final_vector(states))


@pytest.mark.parametrize("tiles", [1, 4, 7, 10, 13])
def test_capped_vectors_by_clusters_agree_with_the_whole_suit(tiles):
    """Caps (melds holding copies) split the suit as the clusters do only where no
    capped kind lies within two of two clusters: near kinds and shared gaps included."""
    rng = random.Random(100 + tiles)
    for _ in range(300):
        key = random_key(rng, tiles)
        caps = [4] * 9
        for _ in range(rng.randint(1, 3)):
            caps[rng.randrange(9)] = rng.randint(0, 3)
        got = suit_tables._vectors[suit_tables.capped_vector(0, key, tuple(caps))]
        assert got == whole_suit_capped(decode(key, 9), caps), (decode(key, 9), caps)
