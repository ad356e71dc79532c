"""Room art: one SVG banner per room level, drawn here from simple shapes, as the tiles are.

``python -m mahjong.assets.rooms [OUT_DIR]`` writes ``room-1.svg`` to ``room-5.svg`` into
static/lobby/rooms/ (or OUT_DIR). The lobby gives each open room the art of its place
among them in the lobby's order (lobby.views), so a room the operator adds gets one too.

Each banner is a 320x120 felt of the level's colour with a faint lattice, a fan of three
tiles whose middle one shows the level as pips (一筒 for the first room, 五筒 for the
fifth) and as many stacks of gold beans as the level, each a coin taller than the last.
No text: the room's name is the card's heading, and the art is decorative (``alt=""``).
The picture keeps to the middle of the banner, so a card that shows it cropped
(``object-fit: cover``) still shows the fan and the beans.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .files import write_files
from .tiles import BODY, EDGE, IVORY, RIM, num

W, H = 320, 120
LEVELS = 5
OUT_DIR = Path(__file__).resolve().parents[2] / "static" / "lobby" / "rooms"

# (dark, light, lattice) per level: jade, porcelain blue, violet, lacquer red, black and gold
FELTS = (
    ("#0f5132", "#2f9e68", "#b9f2d3"),
    ("#163f7a", "#3b7dd8", "#c9dcff"),
    ("#4a2378", "#8450c0", "#e3d1ff"),
    ("#7d1a14", "#c0392b", "#ffd2c9"),
    ("#16130c", "#4a3b16", "#f3d27a"),
)
PIP_RED = "#b8322a"
PIP_BLUE = "#1d5aa0"
GOLD, GOLD_LIGHT, GOLD_DARK = "#d4a017", "#ffe58a", "#8a6408"

# Pips of 1 to 5 on a tile face 30 wide and 40 tall, as the dots suit lays them out.
PIPS = {
    1: [(15, 20)],
    2: [(15, 10), (15, 30)],
    3: [(7, 8), (15, 20), (23, 32)],
    4: [(8, 10), (22, 10), (8, 30), (22, 30)],
    5: [(8, 9), (22, 9), (15, 20), (8, 31), (22, 31)],
}


def defs(level: int) -> str:
    """The felt's gradient, and the shapes drawn more than once: a bean (its edge, then its
    face), a tile's body and a tile's back."""
    dark, light, _lattice = FELTS[level - 1]
    return (
        "<defs>"
        f'<linearGradient id="felt" x1="0" y1="0" x2="1" y2="1">'
        f'<stop offset="0" stop-color="{light}"/><stop offset="1" stop-color="{dark}"/>'
        "</linearGradient>"
        '<radialGradient id="gold" cx=".38" cy=".35" r=".75">'
        f'<stop offset="0" stop-color="{GOLD_LIGHT}"/><stop offset="1" stop-color="{GOLD}"/>'
        "</radialGradient>"
        f'<g id="bean"><ellipse cy="3" rx="13" ry="5" fill="{GOLD_DARK}"/>'
        '<ellipse rx="13" ry="5" fill="url(#gold)"/></g>'
        f'<g id="tile"><rect x="-18" y="-48" width="36" height="48" rx="5" fill="{EDGE}"/>'
        f'<rect x="-17.4" y="-47.4" width="34.8" height="46.8" rx="4.6" fill="{BODY}"/>'
        f'<rect x="-17" y="-47" width="34" height="42" rx="4.2" fill="{RIM}"/>'
        f'<rect x="-16" y="-46" width="32" height="40" rx="3.6" fill="{IVORY}"/></g>'
        # the green back with a gold diamond, as static/tiles/back.svg
        f'<g id="back"><rect x="-1" y="0" width="32" height="40" rx="3.6" fill="{BODY}"/>'
        '<path d="M15 10 L22 20 L15 30 L8 20 Z" fill="#d4a017"/></g>'
        "</defs>"
    )


def felt(level: int) -> str:
    """The background and a lattice of diamonds, faint, as a table cloth's weave."""
    lattice = FELTS[level - 1][2]
    lines = "".join(
        f"M{x} 0 L{x + H} {H} M{x + H} 0 L{x} {H} " for x in range(-H, W + 1, 40)
    ).strip()
    return (
        f'<rect width="{W}" height="{H}" fill="url(#felt)"/>'
        f'<path d="{lines}" stroke="{lattice}" stroke-width="1.5" opacity=".16" fill="none"/>'
    )


def tile(x: float, y: float, angle: float, face: str) -> str:
    """A 36x48 tile standing at (x, y) (its bottom centre), turned ``angle`` degrees."""
    return (
        f'<g transform="translate({num(x)} {num(y)}) rotate({num(angle)})">'
        f'<use href="#tile"/><g transform="translate(-15 -46)">{face}</g></g>'
    )


BACK = '<use href="#back"/>'


def pips(n: int) -> str:
    out = []
    for cx, cy in PIPS[n]:
        colour = PIP_RED if (cx, cy) == (15, 20) else PIP_BLUE  # the middle pip is red
        r = 8 if n == 1 else 4.6
        out.append(
            f'<circle cx="{cx}" cy="{cy}" r="{num(r)}" fill="none" stroke="{colour}" '
            f'stroke-width="2.5"/><circle cx="{cx}" cy="{cy}" r="{num(r * 0.4)}" fill="{colour}"/>'
        )
    return "".join(out)


def fan(level: int) -> str:
    """Three tiles fanned out: two backs and, in front, the level's pips."""
    return tile(92, 104, -16, BACK) + tile(148, 104, 16, BACK) + tile(120, 100, 0, pips(level))


def coin(cx: float, cy: float) -> str:
    """One bean seen a little from above, centred at (cx, cy)."""
    return f'<use href="#bean" x="{num(cx)}" y="{num(cy)}"/>'


BEANS_LEFT, BEANS_STEP = 196, 23
FAN_LEFT = 62  # the left tile's outer corner


def beans(level: int) -> str:
    """``level`` stacks of beans right of the tiles, the n-th stack n + 1 coins tall."""
    out = []
    for s in range(level):
        cx = BEANS_LEFT + s * BEANS_STEP
        for c in range(s + 2):
            out.append(coin(cx, 100 - c * 7))
    return "".join(out)


def picture(level: int) -> str:
    """The fan and the beans with their shadow, centred on the banner: a card as narrow
    as two of the banner's height keeps them whole (its crop leaves x 40 to 280)."""
    right = BEANS_LEFT + (level - 1) * BEANS_STEP + 13
    shift = W / 2 - (FAN_LEFT + right) / 2
    middle = (FAN_LEFT + right) / 2
    shadow = (
        f'<ellipse cx="{num(middle)}" cy="110" rx="{num((right - FAN_LEFT) / 2 + 14)}" '
        'ry="10" fill="#000" opacity=".2"/>'
    )
    return f'<g transform="translate({num(shift)} 0)">{shadow}{fan(level)}{beans(level)}</g>'


def svg(level: int) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}" preserveAspectRatio="xMidYMid slice">'
        f"{defs(level)}{felt(level)}{picture(level)}</svg>\n"
    )


def path(place: int) -> str:
    """The static path of the art for the room at ``place`` (1 for the cheapest open
    room); rooms past the fifth share the fifth's."""
    return f"lobby/rooms/room-{min(max(place, 1), LEVELS)}.svg"


def generate() -> dict[str, str]:
    """{file name: SVG text} for every room level."""
    return {f"room-{level}.svg": svg(level) for level in range(1, LEVELS + 1)}


def write(out_dir: Path = OUT_DIR) -> list[Path]:
    return write_files(generate(), out_dir)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT_DIR
    written = write(target)
    print(f"{len(written)} SVG files in {target}")
