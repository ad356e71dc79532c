"""``python -m mahjong.engine verify``: the fairness check of a finished hand.

Each input line names a hand as its page publishes it::

    {"id": 1, "ruleset": "classic", "seed": "<hex revealed at the end>",
     "commitment": "<hex published at the start>",
     "dealer": 0,                                   # optional: the hand's dealer seat
     "stage": 3, "stage_player": 0,                 # optional: a 关卡 hand's stage and player
     "overrides": {"haidi_draws": 2},               # optional: the table's ruleset overrides
     "salt": "<hex>",                               # optional: derived from the seed if absent
     "contributions": ["<seat 0 hex>", ""],         # optional: the players' random values
     "deal": {"hands": ["<seat 0 tiles>", "<seat 1 tiles>"],   # optional, each optional:
              "flowers": ["1f", ""], "indicator": "3m"},        # what the players were dealt
     "wall": "<tiles>"}                             # optional: the first tiles of the wall

and gets one verdict line: ``{"id", "ok", "commitment": "ok"|"mismatch", "deal": "ok"|
"mismatch"|"not given", "mismatches": [...], "dealer", "rebuilt": {"hands", "flowers",
"indicator", "wall", "wall_seed", "server_seed_only"}}``. The wall is rebuilt by
``wall.build_wall`` from ``wall.wall_seed(seed, contributions)`` (the seed alone when no
seat contributed; ``server_seed_only`` lists the seats that did not) and dealt as a table
deals it (``game.new_hand``: flowers replaced, a 关卡 stage's seeded
adjustments); without ``dealer`` the first hand's rule applies (a seat drawn from the
seed). The exit code is 1 if any line fails a check or cannot be read, else 0.
"""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
from typing import Any, TextIO

from ..errors import EngineError
from ..game import new_hand
from ..rulesets import Ruleset, get_ruleset
from ..session import first_session
from ..tiles import format_tile, format_tiles, parse_tiles
from ..wall import (
    NO_CONTRIBUTIONS,
    Deal,
    build_wall,
    contribution,
    derive_salt,
    matches_commitment,
    seed_bytes,
    wall_seed,
)
from .jsonlines import serve


def add_arguments(parser: ArgumentParser) -> None:
    parser.description = (
        "Rebuild each hand's wall from its seed; check the commitment and the deal."
    )


def run(args: Namespace, stdin: TextIO, stdout: TextIO) -> int:
    failed: list[dict[str, Any]] = []

    def handle(request: dict[str, Any]) -> dict[str, Any]:
        try:
            verdict = check(request)
        except Exception:
            failed.append(request)
            raise
        if not verdict["ok"]:
            failed.append(request)
        return verdict

    serve(stdin, stdout, handle)
    return 1 if failed else 0


def check(request: dict[str, Any]) -> dict[str, Any]:
    """The verdict for one hand (see the module docstring); raises EngineError on input
    that cannot be read."""
    ruleset = get_ruleset(_text(request, "ruleset"), request.get("overrides") or None)
    seed = _hex(request, "seed")
    salt = _hex(request, "salt") if request.get("salt") else derive_salt(seed)
    published = _text(request, "commitment")
    contributions = _contributions(request.get("contributions"))
    drawn_from = wall_seed(seed, contributions)
    dealer = request.get("dealer")
    if dealer is None:
        dealer = first_session(ruleset, drawn_from).dealer
    elif dealer not in (0, 1):
        raise EngineError(f"dealer must be 0 or 1, got {dealer!r}")
    stage, stage_player = request.get("stage") or 0, request.get("stage_player") or 0
    dealt = _deal(ruleset, seed, dealer, stage, stage_player, contributions)
    wall, _unused = build_wall(ruleset, drawn_from)
    rebuilt = {
        "hands": [format_tiles(h) for h in dealt.hands],
        "flowers": [format_tiles(f) for f in dealt.flowers],
        "indicator": None if dealt.indicator is None else format_tile(dealt.indicator),
        "wall": format_tiles(wall),
        "wall_seed": drawn_from.hex(),
        "server_seed_only": [seat for seat in (0, 1) if not contributions[seat]],
    }
    given = request.get("deal") is not None or request.get("wall") is not None
    deal_problems = _deal_mismatches(request.get("deal"), dealt)
    deal_problems += _wall_mismatches(request.get("wall"), wall)
    commitment_ok = matches_commitment(seed, salt, published)
    problems = (
        [] if commitment_ok else ["commitment: sha256(seed + salt) is not the published commitment"]
    )
    problems += deal_problems
    return {
        "ok": not problems,
        "commitment": "ok" if commitment_ok else "mismatch",
        "deal": ("mismatch" if deal_problems else "ok") if given else "not given",
        "mismatches": problems,
        "dealer": dealer,
        "rebuilt": rebuilt,
    }


def _wall_mismatches(given: object, wall: tuple[int, ...]) -> list[str]:
    if given is None:
        return []
    front = tuple(_tiles(given, "wall", copies=False))
    if wall[: len(front)] == front:
        return []
    return ["wall: the first tiles differ from the rebuilt wall"]


def _contributions(given: object) -> tuple[str, str]:
    if given is None:
        return NO_CONTRIBUTIONS
    if not isinstance(given, list) or len(given) != 2 or not all(isinstance(c, str) for c in given):
        raise EngineError(
            'contributions must be a list of two hex strings (seat 0, seat 1; "" for none)'
        )
    return contribution(given[0]), contribution(given[1])


def _deal(
    ruleset: Ruleset,
    seed: bytes,
    dealer: int,
    stage: int,
    stage_player: int,
    contributions: tuple[str, str],
) -> Deal:
    """The hands as the engine deals them: the wall's deal, and for a 关卡 hand the
    stage's own seeded adjustments too (RULES.md 5.4.5), exactly as a table starts."""
    if stage not in (0, 1, 2, 3, 4) or stage_player not in (0, 1):
        raise EngineError(
            f"stage must be 1-4 (0: none) and stage_player 0 or 1, "
            f"got {stage!r} and {stage_player!r}"
        )
    state = new_hand(
        ruleset, seed, dealer, stage=stage, stage_player=stage_player, contributions=contributions
    )
    return Deal(
        hands=(state.seats[0].concealed, state.seats[1].concealed),
        flowers=(state.seats[0].flowers, state.seats[1].flowers),
        live=state.live,
        indicator=state.indicator,
    )


def _deal_mismatches(given: object, dealt: Deal) -> list[str]:
    if given is None:
        return []
    if not isinstance(given, dict):
        raise EngineError("deal must be an object with hands, flowers and/or indicator")
    out: list[str] = []
    for field in ("hands", "flowers"):
        if given.get(field) is None:
            continue
        values = given[field]
        if not isinstance(values, list) or len(values) != 2:
            raise EngineError(f"deal.{field} must be a list of two tile strings (seat 0, seat 1)")
        for seat, text in enumerate(values):
            if sorted(_tiles(text, f"deal.{field}[{seat}]")) != sorted(getattr(dealt, field)[seat]):
                out.append(f"deal: seat {seat}'s {field} differ from the rebuilt deal")
    if "indicator" in given:
        indicator = given["indicator"]
        expected = None if dealt.indicator is None else format_tile(dealt.indicator)
        if (indicator or None) != expected:
            out.append("deal: the indicator differs from the rebuilt deal")
    return out


def _text(request: dict[str, Any], field: str) -> str:
    value = request[field]
    if not isinstance(value, str) or not value:
        raise EngineError(f"{field} must be a non-empty string")
    return value


def _hex(request: dict[str, Any], field: str) -> bytes:
    value = _text(request, field)
    try:
        return bytes.fromhex(value)
    except ValueError:
        # the CLI's other commands accept any text as a seed; a site seed is always hex
        return seed_bytes(value)


def _tiles(text: object, field: str, *, copies: bool = True) -> list[int]:
    if not isinstance(text, str):
        raise EngineError(f"{field} must be tiles in notation like '123m11z'")
    return parse_tiles(text, check_copies=copies)
