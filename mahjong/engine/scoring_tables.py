"""The scorer's first-use tables, shipped prebuilt (scoring_tables.bin, see
scoring_table_build), so a short run does not build them: every split of a number suit
of up to 14 tiles (``hand_readings._number_splits``), the kinds completing a number suit
(``hand_readings.number_suit_completing``), the set-combination fans of every set of up
to four chows or pungs (``fans.combos.prebuild``). Built, they cost about 0.6 s of CPU;
read, about 30 ms, each part only when first asked for. Without the file every table is
built as before (same contents: tests/engine/test_scoring_tables.py checks the shipped
parts against the builders).

File format: a ``marshal`` dict, part name -> that part's ``marshal`` dump, zlib-
compressed (marshal reads plain data and never runs code).
"""

from __future__ import annotations

import marshal
import zlib
from pathlib import Path
from typing import Any

TABLE_PATH = Path(__file__).with_name("scoring_tables.bin")
_parts: dict[str, bytes] | None = None


def load(name: str) -> Any:
    """The shipped part ``name`` (``"splits"``, ``"completing"``, ``"combos"``), or None
    without the file. Each part is read once: its caller keeps what it returns."""
    global _parts
    if _parts is None:
        try:
            _parts = marshal.loads(TABLE_PATH.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):  # missing, or unreadable here
            _parts = {}  # marshal's format may change between Pythons: build instead
    data = _parts.pop(name, None)
    if data is None:
        return None
    try:
        return marshal.loads(zlib.decompress(data))
    except (EOFError, ValueError, TypeError, zlib.error):
        return None
