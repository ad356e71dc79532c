"""Screenshots of the lobby, a table in the middle of a hand and at its end, the hand's
replay and the profile, at 390x844 (phone, portrait) and 1440x900 (desktop), kept under
var/screenshots/ as artifacts of the run (docs/screenshots/ holds a chosen few)."""

from __future__ import annotations

import struct

import pytest

from tests.e2e.tour import PAGES, SCREENSHOTS, SIZES, tour  # noqa: F401

pytestmark = pytest.mark.e2e


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])  # the IHDR chunk's width and height


@pytest.mark.parametrize("size", SIZES)
def test_every_page_is_shot_at_both_sizes(tour, size):  # noqa: F811
    visit = tour[size]
    assert sorted(visit.shots) == sorted(PAGES)
    for name, path in visit.shots.items():
        data = path.read_bytes()
        assert png_size(data) == SIZES[size], name
        # a page with tile art and text compresses to tens of kB; a blank one to a few
        assert len(data) > 15_000, (name, len(data))
    print(f"\nscreenshots ({size}): {SCREENSHOTS}")
