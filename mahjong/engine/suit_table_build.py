"""Build ``suit_vectors.bin``: the gain vector of every number-suit key holding at most
``MAX_TILES`` tiles, so shanten never runs the dynamic programme for a suit a hand is
likely to hold (the file is shipped; keys beyond it are still solved lazily).

    python -m mahjong.engine.suit_table_build

Walks all count vectors depth first, kind by kind, so the programme states of a prefix
are computed once for every suit sharing it (a state after kind i needs the counts up
to kind i + 2). File format, zlib-compressed: uint32 vector count V, then V vectors of
``suit_tables.WIDTH`` bytes, then a uint16 vector number (1-based, 0 = not built) for
every key 0 .. 5**9 - 1.
"""

from __future__ import annotations

import sys
import time
import zlib
from array import array
from pathlib import Path

from .suit_tables import POW5, TABLE_PATH, States, closed, final_vector, step

MAX_TILES = 14


def build(max_tiles: int = MAX_TILES) -> bytes:
    index = array("H", bytes(2 * 5**9))
    numbers: dict[tuple[int, ...], int] = {}
    counts = [0] * 9

    def visit(kind: int, key: int, tiles: int, states: States) -> None:
        if kind == 9:
            for last in (7, 8):
                states = step(states, counts[last], 0)
            vector = closed(final_vector(states))
            index[key] = numbers.setdefault(vector, len(numbers) + 1)
            return
        for held in range(min(4, max_tiles - tiles) + 1):
            counts[kind] = held
            ready = kind - 2  # the kind whose step now has its two lookahead counts
            after = (
                states if ready < 0 else step(states, counts[ready], max(counts[ready : kind + 1]))
            )
            visit(kind + 1, key + held * POW5[kind], tiles + held, after)
        counts[kind] = 0

    visit(0, 0, 0, {(0, 0, 0, 0): 0})
    vectors = sorted(numbers, key=numbers.__getitem__)
    payload = array("I", [len(vectors)]).tobytes()
    payload += bytes(v for vector in vectors for v in vector) + index.tobytes()
    return zlib.compress(payload, 9)


def main() -> int:
    start = time.perf_counter()
    data = build()
    Path(TABLE_PATH).write_bytes(data)
    print(f"wrote {TABLE_PATH} ({len(data)} bytes) in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
