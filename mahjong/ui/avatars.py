"""Avatars drawn from a player's public id: no uploads to moderate, the same face on
every page and in both languages (a bot's shown name changes with the language, its id
does not). A 5x5 pattern mirrored left to right, as identicons are, in one hue of the
colour wheel; the id's SHA-256 picks both, so a face tells nothing but who it is."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from django.utils.safestring import SafeString, mark_safe

_CELLS = 15  # the left three columns of five rows; the right two mirror them


def _pattern(digest: bytes) -> list[int]:
    """The lit cells: the first two bytes of the digest (after the hue's) that light 5 to
    11 of the 15, so no face is nearly blank or nearly solid."""
    windows = [int.from_bytes(digest[i : i + 2], "big") for i in range(2, len(digest) - 1, 2)]
    lit = [[i for i in range(_CELLS) if bits >> i & 1] for bits in windows]
    return next((cells for cells in lit if 5 <= len(cells) <= 11), lit[0] or [7])


@lru_cache(maxsize=4096)  # a table page shows two faces per push
def avatar_svg(key: str, size: int) -> SafeString:
    digest = hashlib.sha256(key.encode()).digest()
    hue = int.from_bytes(digest[:2], "big") % 360
    on = _pattern(digest)
    cells = set()
    for i in on:
        column, row = divmod(i, 5)
        cells.update({(column, row), (4 - column, row)})
    path = "".join(f"M{x} {y}h1v1h-1z" for x, y in sorted(cells))
    return mark_safe(  # numbers only: nothing of the key itself is written
        f'<svg class="avatar-art" viewBox="-1 -1 7 7" width="{size}" height="{size}" '
        f'aria-hidden="true" focusable="false">'
        f'<rect x="-1" y="-1" width="7" height="7" rx="1.5" fill="hsl({hue},45%,90%)"/>'
        f'<path d="{path}" fill="hsl({hue},55%,36%)"/></svg>'
    )
