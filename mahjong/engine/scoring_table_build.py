"""Build ``scoring_tables.bin`` (see ``scoring_tables``) from the tables' builders:

    python -m mahjong.engine.scoring_table_build

Parts: ``"splits"``, number-suit key -> its splits, and ``"completing"``, number-suit
key -> its completing offsets, as the builders make them (equal values shared, so the
file and its load stay small); ``"combos"``, the distinct fan dicts of set combinations
and, for every set of ``combos.chow_sets()`` and ``combos.pung_sets()`` in that order,
the number of its fan dict (uint16, little-endian): the feature bits of each dict are
given out at run time, so only the fan keys are shipped.
"""

from __future__ import annotations

import marshal
import sys
import time
import zlib
from array import array
from collections.abc import Callable, Iterable
from typing import Any

from . import hand_readings
from .fans import combos
from .scoring_tables import TABLE_PATH


def _shared(value: Any, pool: dict[Any, Any]) -> Any:
    """``value`` with equal tuples (at any depth) made one object: marshal writes a
    shared object once."""
    if isinstance(value, tuple):
        value = tuple(_shared(item, pool) for item in value)
    return pool.setdefault(value, value)


def combos_part() -> tuple[list[dict[str, int]], bytes, bytes]:
    """The set-combination fans of every set, as ``combos`` computes them for a set
    met for the first time (``combos._kept``), in fresh memos."""
    fans: list[dict[str, int]] = []
    number: dict[tuple[tuple[str, int], ...], int] = {}

    def numbers(
        sets: Iterable[tuple[int, ...]],
        pattern_of: Callable[[tuple[int, ...]], tuple[int, ...]],
        fans_of: Callable[[tuple[int, ...]], dict[str, int]],
    ) -> bytes:
        memo: dict[tuple[int, ...], combos.Combos] = {}
        patterns: dict[tuple[int, ...], combos.Combos] = {}
        out = array("H")
        for found in sets:
            fan_dict = combos._kept(memo, patterns, found, pattern_of, fans_of)[0]
            key = tuple(fan_dict.items())
            if key not in number:
                number[key] = len(fans)
                fans.append(dict(fan_dict))
            out.append(number[key])
        if sys.byteorder != "little":
            out.byteswap()
        return out.tobytes()

    chows = numbers(combos.chow_sets(), combos._chow_pattern, combos.chow_fans)
    pungs = numbers(combos.pung_sets(), combos._pung_pattern, combos.pung_fans)
    return fans, chows, pungs


def build() -> bytes:
    splits = hand_readings.build_number_splits()
    pool: dict[Any, Any] = {}
    parts: dict[str, Any] = {
        "splits": {key: _shared(value, pool) for key, value in splits.items()},
        "completing": {
            key: _shared(value, pool)
            for key, value in hand_readings.build_number_suit_completing(splits).items()
        },
        "combos": combos_part(),
    }
    return marshal.dumps(
        {name: zlib.compress(marshal.dumps(part), 9) for name, part in parts.items()}
    )


def main() -> int:
    start = time.perf_counter()
    data = build()
    TABLE_PATH.write_bytes(data)
    print(f"wrote {TABLE_PATH} ({len(data)} bytes) in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
