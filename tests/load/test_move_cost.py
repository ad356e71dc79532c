"""bench/move_cost.py runs from a fresh process and prints each stage's cost per move
(figures, not limits: nothing here judges them); ``--tier`` plays at a room tier's
table, whose hands settle beans through the ledger."""

from __future__ import annotations

import subprocess
import sys

from tests.load.bench_modules import BENCH


def stages(*args: str) -> dict[str, list[float]]:
    done = subprocess.run(
        [sys.executable, str(BENCH / "move_cost.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = done.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("stage"))
    return {
        line.rsplit(maxsplit=3)[0]: [float(x) for x in line.split()[-3:]]
        for line in lines[head + 1 : -1]
    }


def test_a_room_tiers_table_is_played_and_the_ends_of_its_hands_measured_apart():
    rows = stages("--hands", "2", "--tier", "novice", "--seed", "3")
    assert {"click (socket)", "push (other screen)", "click (ends the hand)"} <= set(rows)
    median, mean, queries = rows["click (socket)"]
    assert median > 0 and mean > 0 and 4 <= queries <= 8
    assert rows["click (ends the hand)"][2] > 0  # the settlement's queries, once per hand
