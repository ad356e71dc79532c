"""Tile art: one SVG per kind, drawn here from simple shapes.

``python -m mahjong.assets.tiles [OUT_DIR]`` writes ``<notation>.svg`` for the 42 kinds
(``5m.svg``, ``7z.svg``, ``3f.svg``) and ``back.svg`` into static/tiles/ (or OUT_DIR).

Every tile shares a 60x80 viewBox: a green back layer that shows as the tile's thickness
below an ivory face. Numerals (一 to 九 and 万 on the characters, the small corner
indices), the winds 東南西北, 中, pips, bamboo sticks, the 1-bamboo bird and the 白 frame
are pure geometry, so they look the same on every machine. 發 and the eight flowers are
text in a CJK font stack with system fallbacks; each flower also carries a geometric
corner index (1 to 4) and its own colour, so they stay distinct without the font.

Shapes are fills or strokes at least 2.5 units wide (1 px at a 24 px wide tile); the
corner indices and fine details (class ``ix`` and ``fd``: the rings and stripes of the
bamboo sticks) are hidden below 40 px by a media query inside the SVG.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

from mahjong.engine.tiles import ALL_KINDS, format_tile, number_of, suit_of, tile_name

from .files import write_files

W, H = 60, 80
OUT_DIR = Path(__file__).resolve().parents[2] / "static" / "tiles"

# Palette: ink colours all reach at least 4.5:1 against the ivory face.
IVORY = "#fffaf0"
RIM = "#d8ccb1"
BODY = "#2b8a5a"
EDGE = "#0b331f"
NAVY = "#15224a"
RED = "#b8322a"
GREEN = "#1a7431"
BLUE = "#1d5aa0"
ORANGE = "#d9822b"
BROWN = "#7a4a12"
FONT = (
    "'Noto Serif CJK SC','Source Han Serif SC','Songti SC','STSong','SimSun',"
    "'Noto Sans CJK SC','Source Han Sans SC','PingFang SC','Hiragino Sans GB',"
    "'Microsoft YaHei','WenQuanYi Zen Hei',serif"
)


def num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


# ----- stroke glyphs ---------------------------------------------------------------------
# Each glyph is drawn in a 10x10 box with absolute M/L/Q/H/V/Z commands; `glyph` maps the
# box onto a rectangle of the tile, so the stroke width stays uniform whatever the aspect.

CN_NUMERALS = {
    1: "M0.6 5.2 Q5 4.5 9.4 5",
    2: "M1.8 2.6 H8.2 M0.6 7.8 Q5 7.1 9.4 7.6",
    3: "M1.6 1.4 H8.4 M2.4 5 H7.6 M0.6 8.8 Q5 8.1 9.4 8.6",
    4: "M1 1.6 V9.2 M1 1.6 H9 V9.2 M1 8.6 H9 M4 1.8 Q4 5.6 2.6 6.6 M6.1 1.8 V5.4 Q6.1 6.4 7.2 6.4",
    5: "M1.4 1.2 H8.6 M4.6 1.2 L3.6 8.8 M2.2 4.8 H7.4 V8.8 M0.6 9 H9.4",
    6: "M4.6 0.4 L5.6 1.9 M0.6 3.8 H9.4 M3.8 5.6 L1.8 9.2 M6.2 5.6 L8.4 9.2",
    7: "M0.6 5.2 L9.4 3.6 M4.2 0.6 V7.8 Q4.2 9.2 5.8 9.2 H9.2 V7.6",
    8: "M3.9 1.4 Q3.8 6.4 0.8 9.2 M6 1.4 Q6.3 6.4 9.4 9.2",
    9: "M0.8 3.6 H6.4 V8 Q6.4 9.2 7.6 9.2 H9.4 V7.6 M3.9 0.6 Q3.8 6.4 0.8 9.4",
}
WAN = "M0.8 1.4 H9.2 M4.6 1.4 Q4.2 7 1 9.4 M4.3 4.6 H8.2 Q8.1 9.6 5.6 9.2"
ZHONG = "M1.2 2.6 H8.8 V6.4 H1.2 Z M5 0.2 V9.8"
DIGITS = {
    1: "M1.6 2.4 L3.6 0.6 V10",
    2: "M0.8 2.6 Q1 0.6 3 0.6 Q5.2 0.6 5.2 2.8 Q5.2 4.6 0.8 10 H5.6",
    3: "M1 0.6 H5 L2.6 4.2 Q5.6 4.2 5.6 7 Q5.6 10 3 10 Q1.2 10 0.6 8.8",
    4: "M4.2 10 V0.6 L0.6 7 H5.8",
    5: "M5.2 0.6 H1.3 L0.9 4.6 Q2 3.8 3 3.8 Q5.6 3.8 5.6 6.8 Q5.6 10 2.8 10 Q1.2 10 0.5 8.8",
    6: "M4.8 0.8 Q0.8 1.8 0.8 7 M0.8 7.2 Q0.8 10 3.2 10 Q5.6 10 5.6 7.3 "
    "Q5.6 4.6 3.2 4.6 Q1.2 4.6 0.8 6.6",
    7: "M0.5 0.6 H5.6 L2.2 10",
    8: "M3.1 5 Q0.9 4.6 0.9 2.8 Q0.9 0.6 3.1 0.6 Q5.3 0.6 5.3 2.8 Q5.3 4.6 3.1 5 "
    "Q5.7 5.4 5.7 7.6 Q5.7 10 3.1 10 Q0.5 10 0.5 7.6 Q0.5 5.4 3.1 5",
    9: "M5.4 3.4 Q5.4 0.6 3 0.6 Q0.6 0.6 0.6 3.2 Q0.6 5.8 3 5.8 Q5.4 5.8 5.4 3.4 Q5.4 9.2 1.2 9.8",
}
LETTERS = {
    "E": "M5.4 0.6 H1 V10 H5.4 M1 5.2 H4.6",
    "S": "M5.2 1.8 Q4.4 0.6 3 0.6 Q0.8 0.6 0.8 2.7 Q0.8 4.3 3 5.1 Q5.4 5.9 5.4 7.8 "
    "Q5.4 10 3 10 Q1.4 10 0.6 8.7",
    "W": "M0.1 0.6 L1.5 10 L3 2 L4.5 10 L5.9 0.6",
    "N": "M0.8 10 V0.6 L5.2 10 V0.6",
}

_TOKEN = re.compile(r"[MLQHVZ]|-?\d+(?:\.\d+)?")


def glyph(
    strokes: str, x: float, y: float, w: float, h: float, colour: str, width: float, extra: str = ""
) -> str:
    sx, sy = w / 10, h / 10
    out: list[str] = []
    command = ""
    axis = 0
    for token in _TOKEN.findall(strokes):
        if token.isalpha():
            command, axis = token, 0
            out.append(token)
            continue
        value = float(token)
        if command == "H" or (command != "V" and axis % 2 == 0):
            out.append(num(x + value * sx))
        else:
            out.append(num(y + value * sy))
        axis += 1
    return (
        f'<path d="{" ".join(out)}" fill="none" stroke="{colour}" '
        f'stroke-width="{num(width)}" stroke-linecap="round" stroke-linejoin="round"{extra}/>'
    )


def index(strokes: str, colour: str, width: float = 5.2) -> str:
    """The small corner index, top left; hidden on tiles narrower than 40 px."""
    return glyph(strokes, 5.5, 5.5, width, 8.4, colour, 2.2, ' class="ix"')


def text(
    char: str, colour: str, size: float, y: float = 40, x: float = 30, bold: float = 1.0
) -> str:
    """A CJK character; an outline in its own colour (`bold` units) makes thin system
    fonts as heavy as the stroke-drawn glyphs."""
    return (
        f'<text x="{num(x)}" y="{num(y)}" fill="{colour}" stroke="{colour}" '
        f'stroke-width="{num(bold)}" stroke-linejoin="round" font-size="{num(size)}" '
        f'font-family="{FONT}" font-weight="700" text-anchor="middle" '
        f'dominant-baseline="central">{char}</text>'
    )


# ----- suits -----------------------------------------------------------------------------


def characters(n: int) -> str:
    return "".join(
        [
            index(DIGITS[n], NAVY),
            glyph(CN_NUMERALS[n], 14, 8.5, 32, 22, NAVY, 4.4),
            glyph(WAN, 13, 38, 34, 29, RED, 5),
        ]
    )


def pip(cx: float, cy: float, r: float, colour: str) -> str:
    return (
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{colour}"/>'
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r * 0.6)}" fill="{IVORY}"/>'
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r * 0.3)}" fill="{colour}"/>'
    )


def one_dot() -> str:
    c = 'cx="30" cy="38"'
    ring = "".join(
        f'<circle cx="{num(30 + 13 * _cos(i * 45))}" cy="{num(38 + 13 * _sin(i * 45))}" '
        f'r="3.2" fill="{GREEN}"/>'
        for i in range(8)
    )
    return (
        f'<circle {c} r="22" fill="{BLUE}"/><circle {c} r="18.5" fill="{IVORY}"/>{ring}'
        f'<circle {c} r="8.5" fill="{RED}"/><circle {c} r="5" fill="{IVORY}"/>'
        f'<circle {c} r="2.5" fill="{RED}"/>'
    )


def _cos(deg: float) -> float:
    return round(math.cos(math.radians(deg)), 6)


def _sin(deg: float) -> float:
    return round(math.sin(math.radians(deg)), 6)


DOTS: dict[int, list[tuple[float, float, float, str]]] = {
    2: [(30, 21, 10.5, GREEN), (30, 54, 10.5, BLUE)],
    3: [(16.5, 17.5, 9, BLUE), (30, 37.5, 9, RED), (43.5, 57.5, 9, GREEN)],
    4: [(18, 22, 10, BLUE), (42, 22, 10, GREEN), (18, 53, 10, GREEN), (42, 53, 10, BLUE)],
    5: [
        (17, 18.5, 9, BLUE),
        (43, 18.5, 9, GREEN),
        (30, 37.5, 9, RED),
        (17, 56.5, 9, GREEN),
        (43, 56.5, 9, BLUE),
    ],
    6: [
        (18, 16, 8.5, GREEN),
        (42, 16, 8.5, GREEN),
        (18, 42, 8.5, RED),
        (42, 42, 8.5, RED),
        (18, 60, 8.5, RED),
        (42, 60, 8.5, RED),
    ],
    7: [
        (15, 12.5, 7, GREEN),
        (30, 19, 7, GREEN),
        (45, 25.5, 7, GREEN),
        (19, 44, 7.6, RED),
        (41, 44, 7.6, RED),
        (19, 61, 7.6, RED),
        (41, 61, 7.6, RED),
    ],
    8: [(19, y, 7.4, BLUE) for y in (13.5, 30, 46, 62.5)]
    + [(41, y, 7.4, BLUE) for y in (13.5, 30, 46, 62.5)],
    9: [
        (x, y, 7.4, colour)
        for y, colour in ((15, BLUE), (37.5, RED), (60, GREEN))
        for x in (14.5, 30, 45.5)
    ],
}


def dots(n: int) -> str:
    if n == 1:
        return one_dot()
    return "".join(pip(*spec) for spec in DOTS[n])


def stick(
    cx: float, cy: float, length: float, colour: str, angle: float = 0, width: float = 8
) -> str:
    """One bamboo stick: rounded body, a light stripe, a jointed node in the middle and a
    ring near each end."""
    x, y = cx - width / 2, cy - length / 2
    rot = f' transform="rotate({num(angle)} {num(cx)} {num(cy)})"' if angle else ""
    dark = "#0f4a1f" if colour == GREEN else "#7a1d17"
    light = "#7ccc8e" if colour == GREEN else "#f2a39b"
    rings = "".join(
        f'<rect class="fd" x="{num(x)}" y="{num(ry)}" width="{num(width)}" height="1.6" '
        f'fill="{dark}"/>'
        for ry in (y + 3, y + length - 4.6)
    )
    return (
        f"<g{rot}>"
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(width)}" height="{num(length)}" '
        f'rx="{num(width / 2)}" fill="{colour}"/>'
        f'<rect class="fd" x="{num(x + width * 0.22)}" y="{num(y + 5)}" '
        f'width="{num(width * 0.22)}" '
        f'height="{num(length - 10)}" rx="{num(width * 0.11)}" fill="{light}"/>'
        f"{rings}"
        f'<rect x="{num(x - 0.8)}" y="{num(cy - 1.5)}" width="{num(width + 1.6)}" '
        f'height="3" rx="1.5" fill="{dark}"/>'
        "</g>"
    )


def bird() -> str:
    """1 bamboo: a small bird perched on a bamboo stem."""
    return "".join(
        [
            # perch
            f'<rect x="8" y="61" width="44" height="5.5" rx="2.75" fill="{GREEN}"/>',
            '<rect x="29" y="61" width="2.6" height="5.5" fill="#0f4a1f"/>',
            # tail feathers
            f'<path d="M36 46 Q50 44 55 30 Q50 46 40 52 Z" fill="{BLUE}"/>',
            f'<path d="M36 48 Q53 52 56 42 Q52 56 38 54 Z" fill="{RED}"/>',
            # body and breast
            f'<path d="M13 36 Q12 23 23 22 Q30 22 32 30 Q37 38 40 46 Q34 56 23 55 '
            f'Q12 52 13 36 Z" fill="{GREEN}"/>',
            '<path d="M15 40 Q18 52 27 53 Q19 47 19 36 Z" fill="#f2c14e"/>',
            # wing
            f'<path d="M22 34 Q34 30 42 44 Q32 50 24 46 Q20 40 22 34 Z" fill="{BLUE}"/>',
            f'<path d="M25 38 Q32 37 37 43" fill="none" stroke="{IVORY}" stroke-width="2.5" '
            'stroke-linecap="round"/>',
            # crest, beak, eye
            f'<path d="M19 23 Q18 14 25 12 Q22 17 24 22 Z" fill="{RED}"/>',
            f'<path d="M14 28 L5.5 31.5 L14.5 33 Z" fill="{ORANGE}"/>',
            f'<circle cx="19.5" cy="28.5" r="3.2" fill="{IVORY}"/>',
            f'<circle cx="19" cy="28.5" r="1.7" fill="{NAVY}"/>',
            # legs
            f'<path d="M24 54 L23 61 M30 54 L31 61" stroke="{BROWN}" stroke-width="2.5" '
            'stroke-linecap="round"/>',
        ]
    )


STICKS: dict[int, list[tuple]] = {
    2: [(30, 21.5, 27, GREEN, 0, 9), (30, 53.5, 27, GREEN, 0, 9)],
    3: [(30, 21.5, 27, GREEN, 0, 9), (18, 53.5, 27, GREEN, 0, 9), (42, 53.5, 27, GREEN, 0, 9)],
    4: [
        (18, 21.5, 27, GREEN, 0, 9),
        (42, 21.5, 27, GREEN, 0, 9),
        (18, 53.5, 27, GREEN, 0, 9),
        (42, 53.5, 27, GREEN, 0, 9),
    ],
    5: [
        (15.5, 21, 26, GREEN),
        (44.5, 21, 26, GREEN),
        (30, 37.5, 26, RED),
        (15.5, 54, 26, GREEN),
        (44.5, 54, 26, GREEN),
    ],
    6: [(x, y, 27, GREEN) for y in (21.5, 53.5) for x in (15, 30, 45)],
    7: [(30, 15, 17, RED)] + [(x, y, 19, GREEN) for y in (37, 59) for x in (15, 30, 45)],
    8: [(x, 21.5, 25, GREEN, a, 6.8) for x, a in ((13, 16), (23.5, -16), (36.5, 16), (47, -16))]
    + [(x, 53.5, 25, GREEN, a, 6.8) for x, a in ((13, -16), (23.5, 16), (36.5, -16), (47, 16))],
    9: [(x, y, 19.5, RED if x == 30 else GREEN) for y in (16, 37.5, 59) for x in (15, 30, 45)],
}


def bamboo(n: int) -> str:
    if n == 1:
        return bird()
    return "".join(stick(*spec) for spec in STICKS[n])


WINDS = (
    # 東
    "M1 1.5 H9 M5 0.2 V9.9 M2.1 3 V6.9 M2.1 3 H7.9 V6.9 M2.1 4.95 H7.9 M2.1 6.9 H7.9 "
    "M4.4 7.1 Q3.2 8.7 0.8 9.6 M5.6 7.1 Q6.8 8.7 9.2 9.6",
    # 南
    "M1 1.7 H9 M5 0.2 V3.4 M1.6 3.7 V9.9 M1.6 3.7 H8.4 V9.1 Q8.4 9.8 7.2 9.6 "
    "M3.7 4.5 L4.4 5.4 M6.3 4.5 L5.6 5.4 M3 6.2 H7 M3 7.9 H7 M5 6.2 V9.8",
    # 西
    "M0.8 1.3 H9.2 M1.6 3.5 V9.9 M1.6 3.5 H8.4 V9.9 M1.6 9.2 H8.4 "
    "M4 1.3 V4.8 Q4 6.6 2.1 7.4 M6 1.3 V6.2 Q6 7.3 7.1 7.3 H8.3",
    # 北
    "M3.6 0.5 V9.7 M0.9 3.7 H3.6 M0.7 8.4 L3.6 6.9 "
    "M6.4 0.5 V8.5 Q6.4 9.6 7.6 9.6 H9.4 V8.2 M9.1 2.8 L6.4 4.9",
)


def honor(n: int) -> str:
    if n <= 4:
        letter = "ESWN"[n - 1]
        return index(LETTERS[letter], RED, 7.6 if letter == "W" else 5.2) + glyph(
            WINDS[n - 1], 11, 12, 38, 50, NAVY, 4.6
        )
    if n == 5:
        return (
            f'<rect x="10" y="11" width="40" height="54" rx="4" fill="none" '
            f'stroke="{BLUE}" stroke-width="4.5"/>'
            f'<rect x="16.5" y="17.5" width="27" height="41" rx="2" fill="none" '
            f'stroke="{BLUE}" stroke-width="2.5"/>'
        )
    if n == 6:
        return text("發", GREEN, 46, 38.5, bold=1.6)
    return glyph(ZHONG, 11, 10, 38, 56, RED, 6)


# (character, ink colour, accent colour) for 1f-8f: 春夏秋冬 then 梅蘭竹菊.
FLOWERS = (
    ("春", GREEN, "#7cc46f"),
    ("夏", RED, "#f08a5d"),
    ("秋", BROWN, "#e0a030"),
    ("冬", BLUE, "#8ab8e6"),
    ("梅", "#a3244f", "#f29ab8"),
    ("蘭", "#5e3592", "#b79be0"),
    ("竹", GREEN, "#8fd18f"),
    ("菊", "#875c00", "#f2c14e"),
)


def blossom(cx: float, cy: float, colour: str, centre: str) -> str:
    petals = "".join(
        f'<circle cx="{num(cx + 4.2 * _cos(a))}" cy="{num(cy + 4.2 * _sin(a))}" r="3.1" '
        f'fill="{colour}"/>'
        for a in (-90, -18, 54, 126, 198)
    )
    return petals + f'<circle cx="{num(cx)}" cy="{num(cy)}" r="2.2" fill="{centre}"/>'


def flower(n: int) -> str:
    char, ink, accent = FLOWERS[n - 1]
    number = (n - 1) % 4 + 1
    return "".join(
        [
            index(DIGITS[number], ink),
            blossom(45.5, 13.5, accent, ink),
            text(char, ink, 34, 43),
            f'<rect x="12" y="62" width="36" height="3.5" rx="1.75" fill="{accent}"/>',
        ]
    )


# ----- whole tiles -----------------------------------------------------------------------

STYLE = "<style>@media (max-width:39.9px){.ix,.fd{display:none}}</style>"


def frame(face: str = IVORY) -> str:
    return (
        f'<rect width="{W}" height="{H}" rx="8" fill="{EDGE}"/>'
        f'<rect x="0.9" y="0.9" width="58.2" height="78.2" rx="7.2" fill="{BODY}"/>'
        f'<rect x="1.5" y="1.5" width="57" height="72" rx="6.5" fill="{RIM}"/>'
        f'<rect x="2.5" y="2.5" width="55" height="70" rx="5.5" fill="{face}"/>'
    )


def face(kind: int) -> str:
    suit, n = suit_of(kind), number_of(kind)
    return {"m": characters, "p": dots, "s": bamboo, "z": honor, "f": flower}[suit](n)


def svg(title: str, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
        f'width="{W}" height="{H}"><title>{title}</title>{body}</svg>\n'
    )


def tile_svg(kind: int) -> str:
    title = f"{tile_name(kind, 'zh')} · {tile_name(kind, 'en')}"
    return svg(title, STYLE + frame() + face(kind))


def back_svg() -> str:
    body = (
        f'<rect width="{W}" height="{H}" rx="8" fill="{EDGE}"/>'
        f'<rect x="0.9" y="0.9" width="58.2" height="78.2" rx="7.2" fill="#e3d8bf"/>'
        f'<rect x="1.5" y="1.5" width="57" height="72" rx="6.5" fill="{BODY}"/>'
        f'<rect x="7" y="7" width="46" height="61" rx="3.5" fill="none" stroke="#7fcba2" '
        'stroke-width="2.5"/>'
        '<path d="M30 23 L42 37.5 L30 52 L18 37.5 Z" fill="#d4a017"/>'
        f'<path d="M30 30 L36 37.5 L30 45 L24 37.5 Z" fill="{BODY}"/>'
    )
    return svg("牌背 · Tile back", body)


def generate() -> dict[str, str]:
    """{file name: SVG text} for every tile and the back face."""
    files = {f"{format_tile(kind)}.svg": tile_svg(kind) for kind in ALL_KINDS}
    files["back.svg"] = back_svg()
    return files


def write(out_dir: Path = OUT_DIR) -> list[Path]:
    return write_files(generate(), out_dir)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT_DIR
    written = write(target)
    print(f"{len(written)} SVG files in {target}")
