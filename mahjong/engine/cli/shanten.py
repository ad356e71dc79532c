"""``python -m mahjong.engine shanten [--rules SLUG]``.

Reads ``{"id", "hand"}`` lines and answers ``{"id", "shanten": n}``, plus
``"waits": "147m5z"`` when n == 0 (a 3n+1 hand that is ready). Without ``--rules`` the
forms are the standard one, seven pairs and thirteen orphans over all 34 kinds.
"""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
from typing import Any, TextIO

from ..errors import InvalidAction
from ..hand import check_hand, shanten_and_waits
from ..rulesets import SLUGS, Ruleset, get_ruleset
from ..tiles import format_tiles, parse_tiles
from .jsonlines import serve


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument(
        "--rules", choices=SLUGS, default=None, help="ruleset whose winning forms and tiles apply"
    )


def run(args: Namespace, stdin: TextIO, stdout: TextIO) -> int:
    ruleset = get_ruleset(args.rules) if args.rules else None
    return serve(stdin, stdout, lambda request: answer(request, ruleset))


def answer(request: dict[str, Any], ruleset: Ruleset | None) -> dict[str, Any]:
    hand = request["hand"]
    if not isinstance(hand, str):
        raise InvalidAction(f"hand must be tiles in notation like '123m11z', got {hand!r}")
    tiles = parse_tiles(hand)
    check_hand(tiles, (), ruleset)
    n, kinds = shanten_and_waits(tiles, (), ruleset)
    if kinds:
        return {"shanten": n, "waits": format_tiles(kinds)}
    return {"shanten": n}
