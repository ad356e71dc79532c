"""Feature names as bits: a reading's features (see ``facts``) and a win's situation
(see ``situation``) are one int, and a fan's needs a mask, so checking them is one
``&`` and a table finds the fans a feature set allows a byte at a time
(``FanTable.candidate_mask``)."""

from __future__ import annotations

from collections.abc import Iterable

_BITS: dict[str, int] = {}


def bit(name: str) -> int:
    """The bit of a feature name (given out on first use)."""
    found = _BITS.get(name)
    if found is None:
        found = _BITS[name] = 1 << len(_BITS)
    return found


def bits(names: Iterable[str]) -> int:
    out = 0
    for name in names:
        out |= bit(name)
    return out


def names(mask: int) -> frozenset[str]:
    return frozenset(name for name, b in _BITS.items() if mask & b)
