"""presenters.tiles_of splits the engine's compact notation without parse_tiles' checks:
it must give what parsing and formatting each tile gives, for everything the engine writes."""

from hypothesis import given
from hypothesis import strategies as st

from mahjong.engine.tiles import SUIT_SIZE, format_tile, format_tiles, parse_tiles
from mahjong.tables.presenters import tiles_of

KINDS = st.sampled_from(
    parse_tiles(
        "".join(f"{n}{suit}" for suit, size in SUIT_SIZE.items() for n in range(1, size + 1)),
        check_copies=False,
    )
)


@given(st.lists(st.lists(KINDS, min_size=1, max_size=14), max_size=5))
def test_tiles_of_is_parse_then_format(blocks):
    # compact blocks, space-separated as melds and decompositions write them
    text = " ".join(format_tiles(block) for block in blocks)
    assert tiles_of(text) == [format_tile(k) for k in parse_tiles(text, check_copies=False)]


def test_nothing_gives_no_tiles():
    assert tiles_of(None) == [] and tiles_of("") == []
    assert tiles_of("123m 55z") == ["1m", "2m", "3m", "5z", "5z"]
