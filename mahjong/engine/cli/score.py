"""``python -m mahjong.engine score --rules SLUG``: score winning hands.

Each input line ``{"id", "hand", "melds", "win", "tsumo", "seat", "round", "flowers",
"last_of_kind", "last_tile", "kong_replacement", "robbing_kong", "dealer", "ting", "first_turn",
"haidi_phase", "passes", "wild"}`` (``hand`` without the winning tile; missing optional fields are
false/0) gets ``{"id", "total", "fans": [{"key", "name", "fan", "count"}]}`` (quesheng's 过胡
doubling, already in the total, is its own line ``{"key": "guo_hu", "name": "过胡加倍", "times":
N}``), plus ``"below_minimum": true`` for a gb hand under 8 fan (reported, not refused), or ``{"id",
"error"}`` for a non-winning or invalid hand. ``total`` is the summed fan, the capped basic points
for classic/stage, the multiplier for wenzhou.
"""

from __future__ import annotations

import json
import re
from argparse import ArgumentParser, Namespace
from functools import lru_cache
from typing import Any, TextIO, cast

from ..errors import EngineError, InvalidAction
from ..fans import score_win
from ..melds import Meld, parse_meld
from ..rulesets import SLUGS, Ruleset, get_ruleset
from ..shapes import WinContext
from ..tiles import EAST, FLOWERS, SUIT_BASE, SUIT_SIZE, parse_tile, parse_tiles
from .jsonlines import serve

WIND_LETTERS = {"E": EAST, "S": EAST + 1, "W": EAST + 2, "N": EAST + 3}
FLAGS = (
    "tsumo",
    "last_of_kind",
    "last_tile",
    "kong_replacement",
    "robbing_kong",
    "dealer",
    "first_turn",
    "haidi_phase",
)


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--rules", choices=SLUGS, required=True, help="ruleset to score with")
    parser.add_argument(
        "--overrides", default=None, help="JSON object of ruleset overrides (fan_values, cap, ...)"
    )


def run(args: Namespace, stdin: TextIO, stdout: TextIO) -> int:
    overrides = json.loads(args.overrides) if args.overrides else None
    ruleset = get_ruleset(args.rules, overrides)
    return serve(stdin, stdout, lambda request: answer(request, ruleset))


def answer(request: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    result = score_win(ruleset, context_from_request(request))
    if not result.is_win:
        raise EngineError("not a winning hand")
    out: dict[str, Any] = {
        "total": result.total,
        "fans": [{"key": s.key, "name": s.zh, "fan": s.fan, "count": s.count} for s in result.fans],
    }
    if result.doubling > 1:
        out["fans"].append({"key": "guo_hu", "name": "过胡加倍", "times": result.doubling})
    if result.below_minimum:
        out["below_minimum"] = True
    return out


def context_from_request(request: dict[str, Any]) -> WinContext:
    """The WinContext of one request line; bad fields raise naming the field."""
    get = request.get
    fields: dict[str, Any] = {}
    for name in FLAGS:  # absent or false: WinContext's default
        value = get(name, False)
        if value is not False:
            if value is not True:
                raise InvalidAction(f"{name} must be true or false, got {value!r}")
            fields[name] = True
    flowers = get("flowers", 0)
    if flowers.__class__ is int and flowers >= 0:
        fields["flower_count"] = flowers
    else:
        fields["flowers"], fields["flower_count"] = _flowers(flowers)
    # copies are checked once over hand, melds and win by the scorer (check_tiles)
    fields["hand"] = _hand(_text(request, "hand"))
    melds = get("melds")
    fields["melds"] = _melds(melds) if melds else ()
    win = _text(request, "win")
    kind = _TILES.get(win)
    fields["win"] = _tile(win) if kind is None else kind
    seat, round_ = get("seat", "E"), get("round", "E")
    fields["seat_wind"] = (seat.__class__ is str and _WINDS.get(seat)) or _wind(seat, "seat")
    fields["round_wind"] = (round_.__class__ is str and _WINDS.get(round_)) or _wind(
        round_, "round"
    )
    ting, passes, wild = get("ting", False), get("passes", 0), get("wild")
    if ting is not False:
        fields["ting"] = _ting(ting)
    if passes != 0 or passes.__class__ is not int:
        fields["passes"] = _count(passes, "passes")
    if wild:
        fields["wild"] = _tile(wild)
    return WinContext.of(fields)


def _hand(text: str) -> tuple[int, ...]:
    """``parse_tiles`` for the common spelling (runs of digits, each closed by m/p/s/z),
    each run's kinds kept (runs repeat from hand to hand); anything else, errors
    included, goes to ``parse_tiles``."""
    kinds: list[int] = []
    used = 0
    for digits, suit in _RUNS(text):
        run = _RUN_KINDS[suit].get(digits)
        if run is None:
            run = _run_kinds(suit, digits)
            if run is None:  # 0m, 8z: parse_tiles names the tile
                break
        kinds += run
        used += len(digits) + 1
    if used != len(text):
        return tuple(parse_tiles(text, check_copies=False))
    return tuple(kinds)


def _run_kinds(suit: str, digits: str) -> tuple[int, ...] | None:
    found = _KINDS[suit]
    try:
        run = tuple([found[d] for d in digits])
    except KeyError:
        return None
    memo = _RUN_KINDS[suit]
    if len(memo) >= 100_000:
        memo.clear()
    memo[digits] = run
    return run


_RUNS = re.compile(r"(\d+)([mpsz])").findall
_KINDS = {
    suit: {str(n): SUIT_BASE[suit] + n - 1 for n in range(1, SUIT_SIZE[suit] + 1)}
    for suit in "mpsz"
}
_RUN_KINDS: dict[str, dict[str, tuple[int, ...]]] = {suit: {} for suit in "mpsz"}
# Every plain tile's spelling (``_tile`` parses the rest, naming what is wrong).
_TILES = {
    f"{n}{suit}": kind
    for suit, found in _KINDS.items()
    for n, kind in ((int(d), k) for d, k in found.items())
}


# Winning tiles, winds and melds repeat from line to line: parse each spelling once.
@lru_cache(maxsize=1024)
def _tile(text: str) -> int:
    return parse_tile(text)


@lru_cache(maxsize=4096)
def _meld(text: str) -> Meld:
    found = parse_meld(text)
    if len(_MELDS) < 4096:
        _MELDS[text] = found
    return found


_MELDS: dict[str, Meld] = {}  # meld spelling -> Meld, for the look-up that skips the checks


def _melds(value: Any) -> tuple[Meld, ...]:
    """Melds as a list of strings or one comma-separated string."""
    if value.__class__ is list:  # the usual spelling: each string parsed once, kept
        found = [_MELDS.get(part) if part.__class__ is str else None for part in value]
        if None not in found:
            return tuple(cast("list[Meld]", found))
    parts = value.split(",") if isinstance(value, str) else value
    if not isinstance(parts, (list, tuple)):
        raise InvalidAction(f'melds must be a list like ["pon 777z"], got {value!r}')
    return tuple(
        _meld(p.strip()) if isinstance(p, str) else parse_meld(p)
        for p in parts
        if not isinstance(p, str) or p.strip()
    )


def _text(request: dict[str, Any], name: str) -> str:
    value = request[name]
    if not isinstance(value, str):
        raise InvalidAction(f"{name} must be tiles in notation like '123m', got {value!r}")
    return value


# Every spelling of a wind the CLI takes: a letter or its tile.
_WINDS = {**WIND_LETTERS, **{f"{i + 1}z": EAST + i for i in range(4)}}


def _wind(value: Any, name: str) -> int:
    found = _WINDS.get(value) if isinstance(value, str) else None
    if found is not None:
        return found
    try:
        kind = _tile(value)
    except (InvalidAction, TypeError):
        kind = None
    if kind is None or not EAST <= kind < EAST + 4:
        raise InvalidAction(f"{name} must be a wind: 1z-4z or E/S/W/N, got {value!r}")
    return kind


def _flowers(value: Any) -> tuple[tuple[int, ...], int]:
    if isinstance(value, str):
        kinds = tuple(parse_tiles(value))
        if any(k not in FLOWERS for k in kinds):
            raise InvalidAction(f"flowers must be flower tiles like '1f5f', got {value!r}")
        return kinds, len(kinds)
    return (), _count(value, "flowers")


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidAction(f"{name} must be a whole number >= 0, got {value!r}")
    return value


def _ting(value: Any) -> str | bool:
    if value in (False, None, "ready", "tian_ting"):
        return value or False
    raise InvalidAction(f'ting must be false, "ready" or "tian_ting", got {value!r}')
