"""Two commits under the same load, alternated: is a change faster, or was the machine?

On the 2-core bench machine the same code's runs of ``bench/load.py`` spread by about
20% (session 8: 10.7-14.1 ms of CPU per move, a p99 of 98-315 ms, at 200 tables), so one
run each says little. This runs each commit's own ``bench/load.py`` from a work tree of
its own, in pairs whose order alternates (A B, B A, A B, ...), and prints every run and,
per figure, how many pairs favour the change and the median of the pairs' differences:

    .venv/bin/python bench/ab.py --base 1f2e60d [--change HEAD] [--pairs 3] \\
        -- --tables 200 --seconds 60 --warmup 15 --relay-seconds 15

Everything after ``--`` goes to both commits' load.py (so both must know the options).
The work trees use this checkout's virtualenv and are removed at the end. A pair at 200
tables takes about 7 minutes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (label, where in a load.py JSON line, True if lower is better)
FIGURES = [
    ("table moves/s", ("game", "table_moves_per_s"), False),
    ("click to screens p50 ms", ("game", "p50_ms"), True),
    ("click to screens p95 ms", ("game", "p95_ms"), True),
    ("click to screens p99 ms", ("game", "p99_ms"), True),
    ("CPU per move, all ms", ("game", "server_cpu_ms_per_move", "all"), True),
    ("CPU per move, web ms", ("game", "server_cpu_ms_per_move", "web"), True),
    ("SQL queries per move, web", ("game", "queries_web_per_move"), True),
    ("relay CPU per message ms", ("relay", "server_cpu_ms_per_message", "all"), True),
]


def figure(run: dict, path: tuple[str, ...]):
    for key in path:
        run = run.get(key) if isinstance(run, dict) else None
    return run


def compare(pairs: list[tuple[dict, dict]]) -> list[dict]:
    """Per figure: both sides' values, how many pairs favour the change, and the median
    of the differences (change minus base). The relay is the control: the same code on
    both sides, so its spread is the machine's."""
    rows = []
    for label, path, lower_is_better in FIGURES:
        base = [figure(a, path) for a, _ in pairs]
        change = [figure(b, path) for _, b in pairs]
        known = [(a, b) for a, b in zip(base, change) if a is not None and b is not None]
        better = sum((b < a) if lower_is_better else (b > a) for a, b in known)
        rows.append(
            {
                "figure": label,
                "base": base,
                "change": change,
                "favour_change": f"{better}/{len(known)}",
                "median_difference": round(statistics.median(b - a for a, b in known), 2)
                if known
                else None,
            }
        )
    return rows


def load_lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def run_load(tree: Path, load_args: list[str]) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "bench/load.py", *load_args], cwd=tree, capture_output=True, text=True
    )
    if done.returncode:
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit(f"bench/load.py failed in {tree} (exit {done.returncode})")
    return load_lines(done.stdout)


def work_tree(rev: str, parent: Path, name: str) -> Path:
    tree = parent / name
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--force", str(tree), rev],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    (tree / ".venv").symlink_to(ROOT / ".venv")
    return tree


def arguments(argv: list[str] | None = None) -> tuple[argparse.Namespace, list[str]]:
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    own, load_args = argv[:cut], argv[cut + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--change", default="HEAD")
    parser.add_argument("--pairs", type=int, default=3)
    return parser.parse_args(own), load_args


def main() -> None:
    args, load_args = arguments()
    with tempfile.TemporaryDirectory(prefix="mahjong-ab-") as parent:
        trees = {
            side: work_tree(rev, Path(parent), side)
            for side, rev in (("base", args.base), ("change", args.change))
        }
        try:
            pairs: dict[int, list[tuple[dict, dict]]] = {}  # by table count
            for i in range(args.pairs):
                order = ("base", "change") if i % 2 == 0 else ("change", "base")
                got = {side: run_load(trees[side], load_args) for side in order}
                for line_a, line_b in zip(got["base"], got["change"], strict=True):
                    pairs.setdefault(line_a["tables"], []).append((line_a, line_b))
                    print(
                        json.dumps(
                            {"pair": i + 1, "order": order, "base": line_a, "change": line_b}
                        ),
                        flush=True,
                    )
        finally:
            for tree in trees.values():
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(tree)],
                    cwd=ROOT,
                    capture_output=True,
                )
    for tables, runs in pairs.items():
        print(
            f"\n{tables} tables: {args.base} (base) against {args.change} (change), "
            f"{len(runs)} pairs"
        )
        for row in compare(runs):
            print(
                f"  {row['figure']:28} base {row['base']}  change {row['change']}  "
                f"favour the change {row['favour_change']}, "
                f"median difference {row['median_difference']}"
            )


if __name__ == "__main__":
    main()
