"""gb scoring speed, side by side in one run on the same hands, both end to end the
same way: the score CLI's JSON-lines loop (``cli.jsonlines.serve``: read a line,
``json.loads``, handle, ``json.dumps`` the answer, write it) over the same input lines,
with only the handler differing:

* ours: ``score_cli.answer``, the ``score`` CLI's own handler (request fields checked
  and parsed into a WinContext, tiles checked, readings, fans, the answer dict);
* C++: the competition calculator (PyPI ``PyMahjongGB``, ``MahjongGB``) driven from
  Python: the request's fields converted to the calculator's arguments (tile notation
  to its tile names, melds to its packs, winds, flags), ``MahjongFanCalculator`` called,
  its fans turned into the same answer dict (key, name, fan, count; total;
  below_minimum under 8 non-flower fan).

Each round scores fresh hands (seed + round), so no per-hand memo of either side is
warm: only what any long-running scorer keeps (hand analysis's per-suit tables, the
fan tables' plans) carries over. Rounds alternate the two sides; the best round of
each is reported.

Run: ``.venv/bin/python bench/gb_score.py [--hands N] [--seed S] [--rounds R]
[--breakdown]``. Prints CPU microseconds per hand (``time.process_time``: on a shared
machine the other processes' load barely moves it, unlike wall-clock time) and the
ratio. Figures are recorded in docs/BENCHMARKS.md ("Scoring").
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

from MahjongGB import MahjongFanCalculator  # noqa: E402
from test_gb_oracle_hands import random_deal  # noqa: E402

from mahjong.engine.cli import score as score_cli  # noqa: E402
from mahjong.engine.cli.jsonlines import serve  # noqa: E402
from mahjong.engine.fans import TABLES  # noqa: E402
from mahjong.engine.rulesets import get_ruleset  # noqa: E402


def make_lines(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [json.dumps(random_deal(rng).as_json(i)) for i in range(n)]


def run(lines: list[str], handle) -> float:
    """CPU seconds to serve ``lines`` through the score CLI's loop with ``handle``."""
    stdin, stdout = io.StringIO("\n".join(lines) + "\n"), io.StringIO()
    start = time.process_time()
    serve(stdin, stdout, handle)
    return time.process_time() - start


def ours(lines: list[str]) -> float:
    ruleset = get_ruleset("gb")
    return run(lines, lambda request: score_cli.answer(request, ruleset))


def calculator(lines: list[str]) -> float:
    return run(lines, calculator_answer)


# ----- the C++ side's handler: our request in, the same answer out -----------------------
SUIT_LETTERS = {"m": "W", "p": "B", "s": "T"}
HONOR_NAMES = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")  # 1z-4z winds, 5z 白 6z 發 7z 中
WINDS = {"E": 0, "S": 1, "W": 2, "N": 3, "1z": 0, "2z": 1, "3z": 2, "4z": 3}
KEYS = {fan.zh: fan.key for fan in TABLES["gb"].fans}
KEYS.update({"独听・单钓": "dan_diao_jiang", "独听・嵌张": "kan_zhang", "独听・边张": "bian_zhang"})


def calculator_tiles(text: str) -> list[str]:
    """``"123m11z"`` -> ``["W1", "W2", "W3", "F1", "F1"]``."""
    out, digits = [], []
    for ch in text:
        if ch.isdigit():
            digits.append(ch)
        elif ch == "z":
            out.extend(HONOR_NAMES[int(d) - 1] for d in digits)
            digits = []
        else:
            letter = SUIT_LETTERS[ch]
            out.extend(letter + d for d in digits)
            digits = []
    return out


PACKS = {"chi": "CHI", "pon": "PENG", "kan": "GANG", "ankan": "GANG"}


def calculator_pack(text: str) -> tuple:
    kind, tiles = text.split()
    names = calculator_tiles(tiles)
    if kind == "chi":
        return ("CHI", names[1], 1)
    return (PACKS[kind], names[0], 0 if kind == "ankan" else 1)


def calculator_kwargs(request: dict) -> dict:
    return dict(
        pack=tuple(calculator_pack(m) for m in request.get("melds") or ()),
        hand=tuple(calculator_tiles(request["hand"])),
        winTile=calculator_tiles(request["win"])[0],
        flowerCount=request.get("flowers", 0),
        isSelfDrawn=request.get("tsumo", False),
        is4thTile=request.get("last_of_kind", False),
        isAboutKong=request.get("kong_replacement", False) or request.get("robbing_kong", False),
        isWallLast=request.get("last_tile", False),
        seatWind=WINDS[request.get("seat", "E")],
        prevalentWind=WINDS[request.get("round", "E")],
        verbose=True,
    )


def calculator_answer(request: dict) -> dict:
    fans = MahjongFanCalculator(**calculator_kwargs(request))
    total = flowers = 0
    out = []
    for fan, count, name, _ in fans:
        total += fan * count
        if name == "花牌":
            flowers += fan * count
        out.append({"key": KEYS[name], "name": name, "fan": fan, "count": count})
    answer = {"total": total, "fans": out}
    if total - flowers < 8:
        answer["below_minimum"] = True
    return answer


def breakdown(lines: list[str]) -> dict[str, float]:
    """Microseconds per hand spent in each stage of ours (best of 5 per stage)."""
    from mahjong.engine import hand
    from mahjong.engine.fans import check_tiles, score_decompositions
    from mahjong.engine.fans.facts import TileFacts

    def readings_of(ruleset, c):
        return hand.readings(c.hand, c.melds, c.win, ruleset, tsumo=c.tsumo, wild=c.wild)

    def has_one_winning_kind(ruleset, c, decomps):
        return hand.has_one_winning_kind(c.hand, c.melds, c.win, ruleset, c.wild, decomps)

    ruleset = get_ruleset("gb")
    requests = [json.loads(line) for line in lines]
    contexts = [score_cli.context_from_request(r) for r in requests]
    readings = [readings_of(ruleset, c) for c in contexts]
    pairs = list(zip(contexts, readings))
    tiles = [TileFacts.of_hand(c) for c in contexts]
    scored = list(zip(contexts, readings, tiles))
    results = [score_decompositions(ruleset, c, d, tiles=t) for c, d, t in scored]
    answers = [
        {
            "total": r.total,
            "fans": [{"key": f.key, "name": f.zh, "fan": f.fan, "count": f.count} for f in r.fans],
        }
        for r in results
    ]
    stages = {
        "JSON in + WinContext": (
            lambda line: score_cli.context_from_request(json.loads(line)),
            lines,
        ),
        "tile facts + checks": (lambda c: check_tiles(ruleset, c, TileFacts.of_hand(c)), contexts),
        "readings (hand analysis)": (lambda c: readings_of(ruleset, c), contexts),
        "one winning kind? (all hands)": (lambda p: has_one_winning_kind(ruleset, *p), pairs),
        "fans of every reading": (
            lambda p: score_decompositions(ruleset, p[0], p[1], tiles=p[2]),
            scored,
        ),
        "JSON out": (lambda a: json.dumps(a, ensure_ascii=False), answers),
        "C++ side: handler (convert, call, answer)": (calculator_answer, requests),
        "C++ side: MahjongFanCalculator call alone": (
            lambda kw: MahjongFanCalculator(**kw),
            [calculator_kwargs(r) for r in requests],
        ),
    }
    out = {}
    for name, (stage, items) in stages.items():
        seconds = min(_timed(stage, items) for _ in range(5))
        out[name] = seconds / len(items) * 1e6
    return out


def _timed(stage, items) -> float:
    start = time.process_time()
    for item in items:
        stage(item)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--breakdown", action="store_true", help="also time each stage")
    args = parser.parse_args()
    warm = make_lines(args.hands, args.seed - 1)
    ours(warm), calculator(warm)  # imports, per-suit tables, fan plans
    # Alternate rounds, fresh hands each, best of each: a shared machine's load hits
    # both alike.
    best = {"ours": float("inf"), "calculator": float("inf")}
    for r in range(args.rounds):
        lines = make_lines(args.hands, args.seed + r)
        best["ours"] = min(best["ours"], ours(lines))
        best["calculator"] = min(best["calculator"], calculator(lines))
    per_hand = {name: seconds / args.hands * 1e6 for name, seconds in best.items()}
    print(
        f"{args.hands} gb hands per round (seeds {args.seed}..{args.seed + args.rounds - 1}), "
        f"best of {args.rounds} alternating rounds, JSON line in -> JSON answer out, CPU time"
    )
    print(f"  ours (pure Python, score CLI handler): {per_hand['ours']:8.1f} us/hand")
    print(f"  C++ calculator driven from Python:     {per_hand['calculator']:8.1f} us/hand")
    print(
        f"  ratio ours / C++:                      {per_hand['ours'] / per_hand['calculator']:8.2f}"
    )
    if args.breakdown:
        print(
            "where our time goes (us/hand, each stage timed alone on the last round's "
            "hands; the one-winning-kind test runs lazily, for about half the hands):"
        )
        for name, micros in breakdown(lines).items():
            print(f"  {name:36s}{micros:8.1f}")


if __name__ == "__main__":
    main()
