"""Time from a cold ``score`` CLI's start to its first answer line.

Starts ``python -m mahjong.engine score --rules gb`` as a subprocess, writes one JSON
line (a gb win that asks every first-use table: set-combination fans, the splits of
its suits, the one-winning-kind test), and times the first output line from just
before the process is started. ``python -c pass`` is timed the same way in the same
run (the interpreter's own start-up, the floor). Runs alternate the two; prints the
median and min wall time of each, and the CLI's CPU time (user + sys of the child,
which a busy machine moves less than wall time).

Run: ``.venv/bin/python bench/score_first_answer.py [--runs N]``. Figures are recorded
in docs/BENCHMARKS.md ("Scoring").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# 9p wins 123m 456m 789m 234p 9p: a single wait (the one-winning-kind test), a 清龙
# (set combinations), four suits' splits.
REQUEST = {"id": 1, "hand": "123456789m234p9p", "win": "9p", "seat": "E", "round": "E"}


def first_answer(argv: list[str], line: str | None) -> tuple[float, float, str]:
    """Wall seconds from start to the first output line (or to exit without input),
    the child's CPU seconds, and the line."""
    before = os.times()
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert proc.stdin is not None and proc.stdout is not None
    if line is not None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
    out = proc.stdout.readline()
    wall = time.perf_counter() - start
    proc.stdin.close()
    proc.wait()
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    python = sys.executable
    cli = [python, "-m", "mahjong.engine", "score", "--rules", "gb"]
    line = json.dumps(REQUEST)
    times: dict[str, list[tuple[float, float]]] = {"cli": [], "pass": []}
    answer = ""
    for _ in range(args.runs):
        wall, cpu, answer = first_answer(cli, line)
        times["cli"].append((wall, cpu))
        wall, cpu, _ = first_answer([python, "-c", "pass"], None)
        times["pass"].append((wall, cpu))
    print(f"first answer: {answer.strip()}")
    print(f"{args.runs} runs alternating, seconds   median wall   min wall   median CPU")
    for name, label in (("cli", "score CLI, first answer"), ("pass", "python -c pass")):
        walls = [w for w, _ in times[name]]
        cpus = [c for _, c in times[name]]
        print(
            f"  {label:30s}{statistics.median(walls):10.3f}{min(walls):11.3f}"
            f"{statistics.median(cpus):13.3f}"
        )


if __name__ == "__main__":
    main()
