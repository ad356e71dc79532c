"""gb scoring speed, side by side in one run on the same hands:

* ours: the ``score`` CLI's code path in process (a JSON line in, the JSON answer out);
* the C++ competition calculator (PyPI ``PyMahjongGB``) driven from Python: the same
  JSON line parsed, converted to its arguments, scored, its fans dumped as JSON.

Run: ``.venv/bin/python bench/gb_score.py [--hands N] [--seed S] [--breakdown]``. Prints
CPU microseconds per hand (``time.process_time``: on a shared machine the other
processes' load barely moves it, unlike wall-clock time) and the ratio. Figures are recorded in docs/BENCHMARKS.md ("Scoring").
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

from mahjong.engine.cli import score as score_cli  # noqa: E402
from mahjong.engine.cli.jsonlines import serve  # noqa: E402
from mahjong.engine.rulesets import get_ruleset  # noqa: E402
from test_gb_oracle_hands import Deal, calculator_args, random_deal  # noqa: E402


def make_lines(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [json.dumps(random_deal(rng).as_json(i)) for i in range(n)]


def ours(lines: list[str]) -> float:
    ruleset = get_ruleset("gb")
    stdin, stdout = io.StringIO("\n".join(lines) + "\n"), io.StringIO()
    start = time.process_time()
    serve(stdin, stdout, lambda request: score_cli.answer(request, ruleset))
    return time.process_time() - start


def calculator(lines: list[str]) -> float:
    stdout = io.StringIO()
    start = time.process_time()
    for line in lines:
        request = json.loads(line)
        deal = Deal(score_cli.context_from_request(request))
        fans = MahjongFanCalculator(**calculator_args(deal), verbose=True)
        out = {"id": request["id"], "total": sum(p * c for p, c, _, _ in fans),
               "fans": [{"name": name, "fan": p, "count": c} for p, c, name, _ in fans]}
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    return time.process_time() - start


def breakdown(lines: list[str]) -> dict[str, float]:
    """Microseconds per hand spent in each stage of ours (best of 5 per stage)."""
    from mahjong.engine import hand
    from mahjong.engine.fans import check_tiles, score_decompositions

    def readings_of(ruleset, c):
        return hand.readings(c.hand, c.melds, c.win, ruleset, tsumo=c.tsumo, wild=c.wild)

    def has_one_winning_kind(ruleset, c, decomps):
        return hand.has_one_winning_kind(c.hand, c.melds, c.win, ruleset, c.wild, decomps)

    ruleset = get_ruleset("gb")
    requests = [json.loads(line) for line in lines]
    contexts = [score_cli.context_from_request(r) for r in requests]
    readings = [readings_of(ruleset, c) for c in contexts]
    pairs = list(zip(contexts, readings))
    results = [score_decompositions(ruleset, c, d) for c, d in pairs]
    answers = [{"total": r.total, "fans": [{"key": f.key, "name": f.zh, "fan": f.fan,
                                             "count": f.count} for f in r.fans]}
               for r in results]
    stages = {
        "JSON in + WinContext": (lambda line: score_cli.context_from_request(json.loads(line)),
                                 lines),
        "tile checks": (lambda c: check_tiles(ruleset, c), contexts),
        "readings (hand analysis)": (lambda c: readings_of(ruleset, c), contexts),
        "one winning kind? (all hands)": (lambda p: has_one_winning_kind(ruleset, *p), pairs),
        "fans of every reading": (lambda p: score_decompositions(ruleset, *p), pairs),
        "JSON out": (lambda a: json.dumps(a, ensure_ascii=False), answers),
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
    lines = make_lines(args.hands, args.seed)
    ours(lines), calculator(lines)           # warm caches and imports
    # Interleaved rounds, best of each: a shared machine's load hits both alike.
    best = {"ours": float("inf"), "calculator": float("inf")}
    for _ in range(args.rounds):
        best["ours"] = min(best["ours"], ours(lines))
        best["calculator"] = min(best["calculator"], calculator(lines))
    per_hand = {name: seconds / len(lines) * 1e6 for name, seconds in best.items()}
    print(f"{len(lines)} gb hands (seed {args.seed}), best of {args.rounds} interleaved rounds, "
          "JSON in -> fans out, CPU time")
    print(f"  ours (pure Python, score CLI path): {per_hand['ours']:8.1f} us/hand")
    print(f"  C++ calculator from Python:         {per_hand['calculator']:8.1f} us/hand")
    print(f"  ratio ours / C++:                   {per_hand['ours'] / per_hand['calculator']:8.2f}")
    if args.breakdown:
        print("where our time goes (us/hand; the one-winning-kind test runs lazily, for")
        print("about half the hands, so the stages add up to more than the whole):")
        for name, micros in breakdown(lines).items():
            print(f"  {name:32s}{micros:8.1f}")


if __name__ == "__main__":
    main()
