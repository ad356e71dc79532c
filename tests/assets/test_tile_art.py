"""The tile art generator: every kind drawn, valid SVG, deterministic, and committed."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mahjong.assets import tiles as art
from mahjong.engine.tiles import ALL_KINDS, format_tile

STATIC_TILES = Path(__file__).resolve().parents[2] / "static" / "tiles"
SVG_NS = "{http://www.w3.org/2000/svg}"
NAMES = [f"{format_tile(k)}.svg" for k in ALL_KINDS] + ["back.svg"]


def test_there_is_one_file_per_kind_and_a_back_face():
    assert sorted(art.generate()) == sorted(NAMES)
    assert len(NAMES) == 43 and "5m.svg" in NAMES and "7z.svg" in NAMES and "8f.svg" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_each_tile_is_svg_with_the_shared_viewbox(name):
    root = ET.fromstring(art.generate()[name])
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox") == "0 0 60 80"
    assert root.find(f"{SVG_NS}title").text


def test_generating_twice_gives_identical_bytes():
    assert art.generate() == art.generate()


def test_the_committed_files_are_a_fresh_generation(tmp_path):
    art.write(tmp_path)
    fresh = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    committed = {p.name: p.read_bytes() for p in STATIC_TILES.glob("*.svg")}
    stale = sorted(n for n in fresh if committed.get(n) != fresh[n])
    assert stale == [], "run `python -m mahjong.assets.tiles` and commit static/tiles/"
    assert sorted(committed) == sorted(fresh)


def test_no_visible_line_is_thinner_than_a_pixel_at_24_px():
    # 60 viewBox units across 24 px: 2.5 units is one pixel. The corner indices (class
    # "ix") are hidden below 40 px wide, and 2.2 units at 40 px is 1.5 px.
    for name, text in art.generate().items():
        for element in ET.fromstring(text).iter():
            width = element.get("stroke-width")
            if width is None or element.tag == f"{SVG_NS}text":
                continue  # a text outline thickens the glyph; it is not a line
            minimum = 2.2 if element.get("class") == "ix" else 2.5
            assert float(width) >= minimum, (name, ET.tostring(element)[:80])


def _luminance(hex_colour):
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a, b):
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_every_character_on_a_tile_meets_wcag_aa_against_the_face():
    inks = set()
    for text in art.generate().values():
        inks |= set(re.findall(r'<text [^>]*fill="(#[0-9a-f]{6})"', text))
    inks |= {art.NAVY, art.RED, art.GREEN, art.BLUE}  # the stroke numerals, 万 and 中
    assert len(inks) >= 6
    for ink in inks:
        assert contrast(ink, art.IVORY) >= 4.5, ink


def test_the_key_strokes_do_not_need_a_font():
    # Numerals, 万, the winds and 中 are paths; only 發 and the flowers use <text>.
    generated = art.generate()
    with_text = sorted(n for n, t in generated.items() if "<text" in t)
    assert with_text == sorted(["6z.svg"] + [f"{i}f.svg" for i in range(1, 9)])
