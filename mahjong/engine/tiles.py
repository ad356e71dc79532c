"""Tile kinds and their text notation.

A tile kind is a small int so hands can be counted in flat arrays:
0-8 are 1m-9m (万), 9-17 are 1p-9p (筒), 18-26 are 1s-9s (条),
27-33 are 1z-7z (东南西北 白發中), 34-41 are 1f-8f (春夏秋冬 梅兰竹菊).
Notation is Tenhou-style runs of digits followed by a suit letter: ``"123m456p11z1f"``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from .errors import InvalidAction

SUITS = "mpszf"
SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
NUM_KINDS = 42
NUM_PLAYING_KINDS = 34  # everything except flowers

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
HONORS = WINDS + DRAGONS
FLOWERS = tuple(range(34, 42))
TERMINALS = (0, 8, 9, 17, 18, 26)
YAOJIU = TERMINALS + HONORS
# The kinds a tile of each kind may join in a set: its own, and up to two each side in
# its suit (an honor only itself).
NEAR_KINDS = tuple(
    tuple(range(max(k - k % 9, k - 2), min(k - k % 9 + 8, k + 2) + 1)) if k < 27 else (k,)
    for k in range(34)
)
ALL_KINDS = tuple(range(NUM_KINDS))

MAX_COPIES = 4
MAX_FLOWER_COPIES = 1


def suit_of(kind: int) -> str:
    if kind < 27:
        return "mps"[kind // 9]
    return "z" if kind < 34 else "f"


def number_of(kind: int) -> int:
    """1-9 for number tiles, 1-7 for honors, 1-8 for flowers."""
    return kind - SUIT_BASE[suit_of(kind)] + 1


def make(number: int, suit: str) -> int:
    if suit not in SUIT_SIZE or not 1 <= number <= SUIT_SIZE[suit]:
        raise InvalidAction(f"no such tile: {number}{suit}")
    return SUIT_BASE[suit] + number - 1


def is_number(kind: int) -> bool:
    return kind < 27


def is_flower(kind: int) -> bool:
    return kind >= 34


def max_copies(kind: int) -> int:
    return MAX_FLOWER_COPIES if is_flower(kind) else MAX_COPIES


_DIGITS = frozenset("0123456789")
_KIND_OF = {
    suit: {str(number): SUIT_BASE[suit] + number - 1 for number in range(1, SUIT_SIZE[suit] + 1)}
    for suit in SUITS
}
_WELL_FORMED = re.compile(r"(?:[0-9]+[mpszf])+")
_RUN = re.compile(r"([0-9]+)([mpszf])")


def parse_tiles(text: str, *, check_copies: bool = True) -> list[int]:
    """Parse ``"123m11z"`` into kinds, in the written order.

    Refuses unknown suits, out-of-range numbers (``0m``, ``8z``, ``9f``), digits with no
    suit, any digit but 0-9 (``str.isdigit`` also takes ``²``, which ``int`` refuses with
    a bare ValueError, and ``５``), and (unless ``check_copies`` is off) more copies of a
    kind than a set holds.
    """
    if not isinstance(text, str):
        raise InvalidAction(f"tiles must be text, got {text!r}")
    compact = text.replace(" ", "")
    kinds = _parse_well_formed(compact) if _WELL_FORMED.fullmatch(compact) else None
    if kinds is None:
        kinds = _parse_or_refuse(text, compact)
    if check_copies:
        check_copy_limits(kinds, text)
    return kinds


def _parse_well_formed(compact: str) -> list[int] | None:
    """Runs of digits and a suit letter, in two regex passes (a CLI parses a hand per
    line); None for a number the suit lacks (``0m``, ``8z``)."""
    try:
        return [_KIND_OF[suit][digit] for digits, suit in _RUN.findall(compact) for digit in digits]
    except KeyError:
        return None


def _parse_or_refuse(text: str, compact: str) -> list[int]:
    """Character by character, saying what is wrong at the first thing that is."""
    kinds: list[int] = []
    pending: list[str] = []
    for ch in compact:
        if ch in _DIGITS:
            pending.append(ch)
        elif ch in SUIT_SIZE:
            if not pending:
                raise InvalidAction(f"suit letter {ch!r} without digits in {text!r}")
            for digit in pending:
                number = int(digit)
                if not 1 <= number <= SUIT_SIZE[ch]:
                    raise InvalidAction(f"no such tile {digit}{ch} in {text!r}")
                kinds.append(SUIT_BASE[ch] + number - 1)
            pending = []
        else:
            raise InvalidAction(f"unknown character {ch!r} in tiles {text!r}")
    if pending:
        raise InvalidAction(f"digits without a suit letter in {text!r}")
    return kinds


def parse_tile(text: str) -> int:
    kinds = parse_tiles(text)
    if len(kinds) != 1:
        raise InvalidAction(f"expected exactly one tile, got {text!r}")
    return kinds[0]


def check_copy_limits(kinds: Iterable[int], label: object = None) -> None:
    kinds = list(kinds)
    distinct = set(kinds)
    spare = len(kinds) - len(distinct)  # a kind with c copies adds c - 1
    if spare < MAX_COPIES and (not spare or max(distinct) < FLOWERS[0]):
        return  # no kind can be over its limit: the usual case, without counting
    for kind, count in Counter(kinds).items():
        if count > max_copies(kind):
            where = f" in {label!r}" if label is not None else ""
            raise InvalidAction(
                f"{count} copies of {format_tile(kind)}{where}: a set has only {max_copies(kind)}"
            )


def format_tile(kind: int) -> str:
    return f"{number_of(kind)}{suit_of(kind)}"


def _spelled(kinds: Iterable[int]) -> Iterable[str]:
    run_suit = None
    for kind in kinds:
        suit = suit_of(kind)
        if run_suit is not None and suit != run_suit:
            yield run_suit
        yield str(number_of(kind))
        run_suit = suit
    if run_suit is not None:
        yield run_suit


_SUIT_OF = tuple(suit_of(kind) for kind in range(NUM_KINDS))
_NUMBER_OF = tuple(str(number_of(kind)) for kind in range(NUM_KINDS))


def format_tiles(kinds: Iterable[int]) -> str:
    """Format kinds in the given order, merging consecutive tiles of one suit.

    ``format_tiles(parse_tiles(s)) == s`` for every well-formed ``s`` in this compact
    form; sort first (``sorted(kinds)``) for the canonical hand notation.
    """
    kinds = tuple(kinds)
    out: list[str] = []
    run_suit = None
    for kind in kinds:
        if not 0 <= kind < NUM_KINDS:  # garbage in: written out as suit_of and number_of do
            return "".join(_spelled(kinds))
        suit = _SUIT_OF[kind]
        if run_suit is not None and suit != run_suit:
            out.append(run_suit)
        out.append(_NUMBER_OF[kind])
        run_suit = suit
    if run_suit is not None:
        out.append(run_suit)
    return "".join(out)


_ZH_NUMBERS = "一二三四五六七八九"
_ZH_SUITS = {"m": "万", "p": "筒", "s": "条"}
_ZH_HONORS = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
_ZH_FLOWERS = "春夏秋冬梅兰竹菊"
_EN_NUMBERS = ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")
_EN_SUITS = {"m": "characters", "p": "dots", "s": "bamboo"}
_EN_HONORS = (
    "East wind",
    "South wind",
    "West wind",
    "North wind",
    "White dragon",
    "Green dragon",
    "Red dragon",
)
_EN_FLOWERS = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum")


def tile_name(kind: int, lang: str = "zh") -> str:
    """Accessible name: ``五万`` / ``Five of characters``."""
    suit, number = suit_of(kind), number_of(kind)
    if lang.startswith("zh"):
        if suit in _ZH_SUITS:
            return _ZH_NUMBERS[number - 1] + _ZH_SUITS[suit]
        return _ZH_HONORS[number - 1] if suit == "z" else _ZH_FLOWERS[number - 1]
    if suit in _EN_SUITS:
        return f"{_EN_NUMBERS[number - 1]} of {_EN_SUITS[suit]}"
    return _EN_HONORS[number - 1] if suit == "z" else _EN_FLOWERS[number - 1]
