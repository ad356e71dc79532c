"""Melds (declared sets) and their notation: ``chi 123m``, ``pon 777z``, ``kan 1111m``,
``ankan 2222p``. ``kan`` is any exposed kong (from a discard or added to a pon)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .errors import InvalidAction
from .tiles import format_tiles, is_number, parse_tiles, suit_of

MELD_TYPES = ("chi", "pon", "kan", "ankan")
_SIZES = {"chi": 3, "pon": 3, "kan": 4, "ankan": 4}


@dataclass(frozen=True, slots=True)
class Meld:
    type: str
    tiles: tuple[int, ...]  # physical tiles, sorted

    @property
    def is_kong(self) -> bool:
        return self.type in ("kan", "ankan")

    def __str__(self) -> str:
        return f"{self.type} {format_tiles(self.tiles)}"


def make_meld(type_: str, tiles: Iterable[int], face: Callable[[int], int] | None = None) -> Meld:
    """Build and validate a meld. ``face`` maps a physical tile to the kind it plays as
    (wenzhou's 白板 stands for the wild's face); identity by default."""
    if type_ not in MELD_TYPES:
        raise InvalidAction(f"unknown meld type {type_!r}: expected one of {', '.join(MELD_TYPES)}")
    tiles = tuple(sorted(tiles))
    faces = sorted(face(t) if face else t for t in tiles)
    label = f"{type_} {format_tiles(tiles)}"
    if len(tiles) != _SIZES[type_]:
        raise InvalidAction(f"{label!r}: a {type_} has {_SIZES[type_]} tiles, not {len(tiles)}")
    if type_ == "chi":
        a, b, c = faces
        if not (is_number(a) and suit_of(a) == suit_of(c) and b == a + 1 and c == a + 2):
            raise InvalidAction(f"{label!r} is not a run of three in one number suit")
    elif len(set(faces)) != 1:
        raise InvalidAction(f"{label!r} must be {len(tiles)} identical tiles")
    return Meld(type_, tiles)


def parse_meld(text: str, face: Callable[[int], int] | None = None) -> Meld:
    if not isinstance(text, str) or " " not in text.strip():
        raise InvalidAction(f"meld must read like 'pon 777z', got {text!r}")
    type_, tiles = text.strip().split(None, 1)
    return make_meld(type_, parse_tiles(tiles), face)


def parse_melds(text: str | list[str], face: Callable[[int], int] | None = None) -> list[Meld]:
    """Melds separated by commas (``"pon 777z, chi 123m"``) or given as a list."""
    if isinstance(text, str):
        parts = [p for p in text.split(",") if p.strip()]
    else:
        parts = list(text)
    return [parse_meld(p, face) for p in parts]
