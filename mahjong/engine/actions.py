"""Actions a seat can take, and their notation.

``draw``, ``discard 5m``, ``chi 3m 45m`` (claimed tile, then the two from the hand),
``pon 7z``, ``kan 7z`` (exposed kong on a discard), ``ankan 2222p``, ``addkan 5m``,
``hu``, ``pass``, ``ting 9m`` (declare ready with this discard), ``guo`` (pass on a win,
quesheng 过胡), and the stage offers ``exchange 19m5z`` (起始换牌), ``cuo 5m`` (搓牌: take
this tile from the live wall), ``swap 258m`` (游戏中换牌: give these three for the offer).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidAction
from .tiles import format_tile, format_tiles, parse_tiles

# verb -> (number of tile groups, tiles per group or None for "any positive number")
_ARITY: dict[str, tuple[int, ...]] = {
    "draw": (),
    "hu": (),
    "pass": (),
    "guo": (),
    "discard": (1,),
    "ting": (1,),
    "pon": (1,),
    "kan": (1,),
    "addkan": (1,),
    "cuo": (1,),
    "ankan": (4,),
    "chi": (1, 2),
    "swap": (3,),
    "exchange": (0,),  # 0 = one or more tiles
}
VERBS = tuple(_ARITY)
MAX_ACTION_TEXT = 64


@dataclass(frozen=True, slots=True)
class Action:
    verb: str
    tiles: tuple[int, ...] = ()

    @property
    def tile(self) -> int:
        return self.tiles[0]

    def __str__(self) -> str:
        arity = _ARITY[self.verb]
        if not arity:
            return self.verb
        if arity == (1, 2):
            return f"chi {format_tile(self.tiles[0])} {format_tiles(self.tiles[1:])}"
        return f"{self.verb} {format_tiles(self.tiles)}"


def parse_action(text: str) -> Action:
    if not isinstance(text, str):
        raise InvalidAction(f"action must be text, got {type(text).__name__}")
    if len(text) > MAX_ACTION_TEXT:
        raise InvalidAction(f"action text too long ({len(text)} characters)")
    words = text.split()
    if not words:
        raise InvalidAction("empty action")
    verb, groups = words[0], words[1:]
    if verb not in _ARITY:
        raise InvalidAction(f"unknown action {verb!r} in {text!r}")
    arity = _ARITY[verb]
    if len(groups) != len(arity):
        raise InvalidAction(f"{text!r}: {verb!r} takes {len(arity)} tile group(s)")
    tiles: list[int] = []
    for group, size in zip(groups, arity):
        parsed = parse_tiles(group)
        if size and len(parsed) != size or not parsed:
            raise InvalidAction(f"{text!r}: expected {size or 'some'} tile(s) in {group!r}")
        tiles.extend(parsed)
    return Action(verb, tuple(tiles))


def action(verb: str, *tiles: int) -> Action:
    """Build an action from kinds (engine-internal; the text form is the public one)."""
    if verb not in _ARITY:
        raise InvalidAction(f"unknown action {verb!r}")
    return Action(verb, tuple(tiles))


# The actions without tiles that every offer list shares.
HU, PASS, GUO = Action("hu"), Action("pass"), Action("guo")
