"""The ``shanten`` CLI against the same CLI written with the riichi library, on the same
random hands: issue 34's "shanten through the CLI at most half the riichi library's time
through an equal CLI".

    .venv/bin/python bench/shanten_cli.py [--hands 20000] [--seed 1] [--rounds 5]

Both sides are the whole loop a user of the CLI gets, in a fresh process each round: a
JSON line read and parsed, the hand's notation parsed and checked, shanten (and the
waits when it is 0), the answer written as a JSON line. Ours is ``cli.shanten.answer``
in ``cli.jsonlines.serve``; riichi's is ``cli`` in bench/shanten_riichi.py (run in
bench/.venv-riichi, which bench/shanten_bench.py creates). Only the loop is timed (CPU,
``time.process_time``), not the interpreter's start-up. Each round deals fresh hands
(seed + round), rounds alternate the sides, the best round of each counts. The answers
are compared: they differ only where the libraries' rules do (bench/shanten_bench.py:
seven pairs with four of a kind; a ready hand whose waits are all held, which our CLI
calls 1-shanten and riichi 0).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shanten_bench import RIICHI_PYTHON, WALL, riichi  # noqa: E402

OURS = """
import io, sys, time
sys.path.insert(0, {root!r})
from mahjong.engine.cli import shanten
from mahjong.engine.cli.jsonlines import serve
with open(sys.argv[1]) as stdin, open(sys.argv[2], "w") as stdout:
    start = time.process_time()
    serve(stdin, stdout, lambda request: shanten.answer(request, None))
    print((time.process_time() - start) / int(sys.argv[3]) * 1e6)
"""


def write_lines(path: Path, hands: int, seed: int) -> None:
    from mahjong.engine.tiles import format_tiles

    rng = random.Random(seed)
    with path.open("w") as out:
        for i in range(hands):
            hand = format_tiles(sorted(rng.sample(WALL, 13)))
            out.write(json.dumps({"id": i, "hand": hand}) + "\n")


def ours(lines: Path, answers: Path, hands: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", OURS.format(root=str(ROOT)), str(lines), str(answers), str(hands)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout)


def theirs(lines: Path, answers: Path) -> float:
    if not RIICHI_PYTHON.exists():
        riichi("selfplay", "1")  # creates bench/.venv-riichi
    done = subprocess.run(
        [str(RIICHI_PYTHON), "shanten_riichi.py", "cli", str(lines), str(answers)],
        cwd=ROOT / "bench",
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)["us_per_hand"]


def differing(a: Path, b: Path) -> int:
    pairs = zip(a.read_text().splitlines(), b.read_text().splitlines(), strict=True)
    return sum(json.loads(x) != json.loads(y) for x, y in pairs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    best = {"ours": float("inf"), "riichi": float("inf")}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for round_ in range(args.rounds):
            lines, mine, its = folder / "lines", folder / "ours", folder / "riichi"
            write_lines(lines, args.hands, args.seed + round_)
            best["ours"] = min(best["ours"], ours(lines, mine, args.hands))
            best["riichi"] = min(best["riichi"], theirs(lines, its))
            print(f"round {round_}: {differing(mine, its)} of {args.hands} answers differ")
    print(f"ours    {best['ours']:7.1f} CPU us/hand (best of {args.rounds} rounds)")
    print(f"riichi  {best['riichi']:7.1f} CPU us/hand")
    print(f"ratio ours / riichi: {best['ours'] / best['riichi']:.2f} (target: at most 0.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
