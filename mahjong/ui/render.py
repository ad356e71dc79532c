"""Tiles as HTML with their accessible names, without Django.

``tile_html("5m", "zh", src="/static/tiles/5m.svg")`` gives::

    <span class="tile tile--md" data-tile="5m"><img class="tile__img" src="/static/tiles/5m.svg"
     alt="五万" width="48" height="64" draggable="false"></span>

The wrapper carries the CSS modifiers of static/css/tiles.css (``tile--wild`` for the 财神,
``tile--drawn`` for the just-drawn tile, ``tile--back``, ``tile--white`` for a 白板 that plays
as the 财神's kind in 温州, RULES.md 9.2.4); the alt text says the same in words, so a screen
reader hears "五万（财神）" where a sighted player sees the gold badge.
"""

from __future__ import annotations

import re
from html import escape

from mahjong.engine.errors import InvalidAction
from mahjong.engine.tiles import NUM_KINDS, format_tile, parse_tile, tile_name

BACK = "back"
# Named sizes: the tile's width in CSS pixels (the height is 4/3 of it).
SIZES = {"xs": 24, "sm": 32, "md": 48, "lg": 64, "xl": 96}

_BACK_NAME = {"zh": "牌背", "en": "Tile back"}
_WILD = {"zh": "（财神）", "en": " (wild)"}
_DRAWN = {"zh": "（刚摸到）", "en": " (just drawn)"}
_WHITE = {"zh": "（白板）", "en": " (a White Dragon standing in)"}


def _lang(lang: str) -> str:
    return "zh" if (lang or "zh").lower().startswith("zh") else "en"


def notation(tile: str | int) -> str:
    """ "5m", 4 (a kind) or "back" -> "5m" / "back"; refuses anything else (InvalidAction)."""
    if isinstance(tile, int):
        if not 0 <= tile < NUM_KINDS:
            raise InvalidAction(f"no such tile kind: {tile}")
        return format_tile(tile)
    if tile == BACK:
        return BACK
    return format_tile(parse_tile(tile))


def tile_label(
    tile: str | int,
    lang: str = "zh",
    *,
    wild: bool = False,
    drawn: bool = False,
    white: bool = False,
) -> str:
    """The accessible name: 五万 / "Five of characters", with the wild, 白板 and drawn
    markers."""
    code, lang = notation(tile), _lang(lang)
    label = _BACK_NAME[lang] if code == BACK else tile_name(parse_tile(code), lang)
    if wild:
        label += _WILD[lang]
    if white:
        label += _WHITE[lang]
    if drawn:
        label += _DRAWN[lang]
    return label


def tile_classes(
    tile: str | int,
    size: str | int = "md",
    *,
    wild: bool = False,
    drawn: bool = False,
    white: bool = False,
) -> str:
    classes = ["tile"]
    if isinstance(size, str) and size in SIZES:
        classes.append(f"tile--{size}")
    if notation(tile) == BACK:
        classes.append("tile--back")
    if wild:
        classes.append("tile--wild")
    if white:
        classes.append("tile--white")
    if drawn:
        classes.append("tile--drawn")
    return " ".join(classes)


def size_px(size: str | int) -> int:
    if isinstance(size, str) and size in SIZES:
        return SIZES[size]
    try:
        px = int(size)
    except (TypeError, ValueError):
        raise ValueError(
            f"tile size must be one of {sorted(SIZES)} or pixels, got {size!r}"
        ) from None
    if not 8 <= px <= 512:
        raise ValueError(f"tile size {px}px is out of range (8-512)")
    return px


def tile_html(
    tile: str | int,
    lang: str = "zh",
    *,
    src: str,
    size: str | int = "md",
    wild: bool = False,
    drawn: bool = False,
    attr: str = "data-tile",
    white: bool = False,
) -> str:
    """One tile: a span with the CSS modifiers around an img with the accessible name.
    ``attr`` names the data attribute that carries the notation (a page may keep
    ``data-tile`` for the player's own hand and use another, or none, elsewhere)."""
    code = notation(tile)
    px = size_px(size)
    style = "" if isinstance(size, str) and size in SIZES else f' style="--tile-w:{px}px"'
    alt = tile_label(code, lang, wild=wild, drawn=drawn, white=white)
    if attr and not re.fullmatch(r"data-[a-z][a-z-]*", attr):
        raise ValueError(f"tile attr must be a data-* name, got {attr!r}")
    hook = f' {attr}="{escape(code)}"' if attr else ""
    return (
        f'<span class="{tile_classes(code, size, wild=wild, drawn=drawn, white=white)}"'
        f"{hook}{style}>"
        f'<img class="tile__img" src="{escape(src)}" alt="{escape(alt)}" width="{px}" '
        f'height="{px * 4 // 3}" draggable="false"></span>'
    )
