"""bench/render_cost.py runs from a fresh process and prints a figure for every partial
of the push (figures, not limits: nothing here judges them)."""

from __future__ import annotations

import subprocess
import sys

from tests.load.bench_modules import BENCH, bench_module


def test_it_prints_a_cost_for_the_push_each_partial_and_the_context():
    done = subprocess.run(
        [sys.executable, str(BENCH / "render_cost.py"), "--hands", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = done.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if "contexts; CPU us per render" in line)
    assert int(lines[head].split()[0]) > 2  # both seats' contexts at every version played
    rows = {line.split()[0]: float(line.split()[1]) for line in lines[head + 1 :]}
    names = ("push", *bench_module("render_cost").PARTIALS, "beans", "context")
    assert list(rows) == list(names) and all(us > 0 for us in rows.values())
