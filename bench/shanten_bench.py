"""Shanten + waits speed, ours against the riichi library, on the same hands.

    .venv/bin/python bench/shanten_bench.py [--hands 20000] [--seed 1] [--warmup 100000]

Two hand sets, both seeded: ``random`` deals 13 tiles from the 136-tile set (almost
never ready), ``ready`` removes one tile from a random complete hand (always ready, so
the waits are computed too). Per hand we time ``shanten_and_waits`` (shanten, and the
waits when it is 0), each time in a fresh process:
* cold: only the shipped number-suit table loaded; the rest (honors, convolutions,
  suits beyond the table) fills lazily while it runs: a short CLI run;
* warm: ``--warmup`` other random hands (another seed) go first, then the set is timed
  on first sight: the state of a long-running server.
The riichi library (PyPI ``mahjong`` 2.1.0) runs in its own virtualenv,
bench/.venv-riichi, created here on first use because that package's name would shadow
ours. The three timings run in ``--repeat`` interleaved rounds and the best round of
each counts (the machine is shared: load hits all three alike). Riichi's waits are the
kinds that bring ``calculate_shanten`` to -1. Both must agree on the standard, seven-pairs and
thirteen-orphans shanten and on the waits of every hand, except for seven pairs (and so
waits) on hands holding three or four of a kind: we count four of a kind as two pairs,
riichi rules do not. Prints a table; exits non-zero on any disagreement.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mahjong.engine import hand_forms  # noqa: E402
from mahjong.engine.hand import shanten_and_waits, waits  # noqa: E402

RIICHI_VENV = ROOT / "bench" / ".venv-riichi"
RIICHI_PYTHON = RIICHI_VENV / "bin" / "python"
RIICHI_VERSION = "2.1.0"
WALL = [kind for kind in range(34) for _ in range(4)]
SETS = [(k, k + 1, k + 2) for k in range(27) if k % 9 <= 6] + [(k,) * 3 for k in range(34)]


def deal(count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [sorted(rng.sample(WALL, 13)) for _ in range(count)]


def deal_ready(count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        tiles = [k for _ in range(4) for k in rng.choice(SETS)] + [rng.randrange(34)] * 2
        if max(Counter(tiles).values()) <= 4:
            tiles.pop(rng.randrange(14))
            out.append(sorted(tiles))
    return out


def ours_per_hand(hands) -> float:
    start = time.perf_counter()
    for tiles in hands:
        shanten_and_waits(tiles)
    return (time.perf_counter() - start) / len(hands) * 1e6


def time_ours(path: str, name: str, warmup: int, seed: int) -> None:
    if warmup:
        ours_per_hand(deal(warmup, seed + 1))
    print(ours_per_hand(json.load(open(path))[name]))


def ours_in_fresh_process(path: str, name: str, warmup: int, seed: int) -> float:
    done = subprocess.run(
        [
            sys.executable,
            __file__,
            "--time-ours",
            path,
            name,
            "--warmup",
            str(warmup),
            "--seed",
            str(seed),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout)


def riichi(path: str, what: str) -> dict:
    if not RIICHI_PYTHON.exists():
        subprocess.run([sys.executable, "-m", "venv", str(RIICHI_VENV)], check=True)
        subprocess.run(
            [str(RIICHI_PYTHON), "-m", "pip", "install", "--quiet", f"mahjong=={RIICHI_VERSION}"],
            check=True,
        )
    # Run from bench/ so the repository's own ``mahjong`` package is not on the path.
    done = subprocess.run(
        [str(RIICHI_PYTHON), "shanten_riichi.py", path, what],
        cwd=ROOT / "bench",
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def best_times(path: str, sets, args) -> dict[str, dict[str, float]]:
    """Rounds of riichi, ours cold, ours warm, interleaved so the shared machine's load
    falls on all three alike; the best round of each counts."""
    best: dict[str, dict[str, float]] = {name: {} for name in sets}
    for _ in range(args.repeat):
        theirs = riichi(path, "time")
        for name in sets:
            run = {
                "riichi": theirs[name],
                "cold": ours_in_fresh_process(path, name, 0, args.seed),
                "warm": ours_in_fresh_process(path, name, args.warmup, args.seed),
            }
            for what, us in run.items():
                best[name][what] = min(us, best[name].get(what, us))
    return best


def disagreements(hands, theirs) -> dict[str, list]:
    views = [hand_forms.view(tiles, ()) for tiles in hands]
    ours = {
        "standard": [hand_forms.standard(v) - 1 for v in views],
        "seven_pairs": [hand_forms.seven_pairs(v) - 1 for v in views],
        "thirteen_orphans": [hand_forms.thirteen_orphans(v) - 1 for v in views],
        "waits": [waits(tiles) for tiles in hands],
    }
    out = {}
    for form, values in ours.items():
        out[form] = [
            (tiles, mine, other)
            for tiles, mine, other in zip(hands, values, theirs[form])
            if mine != other
            and not (form in ("seven_pairs", "waits") and max(Counter(tiles).values()) >= 3)
        ]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=100000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--time-ours", nargs=2, metavar=("HANDS_JSON", "SET"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.time_ours:
        time_ours(*args.time_ours, args.warmup, args.seed)
        return 0

    sets = {"random": deal(args.hands, args.seed), "ready": deal_ready(args.hands, args.seed)}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(sets, f)
    times = best_times(f.name, sets, args)
    theirs = riichi(f.name, "check")
    Path(f.name).unlink()
    print(
        f"{args.hands} hands per set, seed {args.seed}, best of {args.repeat} rounds; "
        f"us per hand for shanten + waits (riichi mahjong {theirs['version']} vs ours)"
    )
    print(f"{'set':<8}{'riichi':>9}{'ours cold':>12}{'ours warm':>12}{'speed-up':>10}{'(cold)':>8}")
    failed = False
    for name, hands in sets.items():
        t = times[name]
        print(
            f"{name:<8}{t['riichi']:>9.1f}{t['cold']:>12.1f}{t['warm']:>12.1f}"
            f"{t['riichi'] / t['warm']:>9.1f}x{t['riichi'] / t['cold']:>7.1f}x"
        )
        for form, bad in disagreements(hands, theirs[name]).items():
            for tiles, mine, other in bad[:3]:
                print(f"    {name} {form} differs on {tiles}: ours {mine}, riichi {other}")
            failed = failed or bool(bad)
    print(
        "standard, seven pairs, thirteen orphans and waits: "
        + ("DISAGREE" if failed else "all agree")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
