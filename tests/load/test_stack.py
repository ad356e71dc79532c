"""bench/stack.py: a run whose process died says which one and where its log is, instead
of failing later on a missing /proc entry or measuring a stack short of a process."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.load.bench_modules import bench_module


def test_a_dead_process_is_named_with_its_exit_code_and_log(tmp_path):
    stack = bench_module("stack").Stack(logs=tmp_path)
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    dead = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    dead.wait()
    try:
        stack.children = {"web0": alive}
        stack.require_running()  # all up: nothing to say
        stack.children["web1"] = dead
        with pytest.raises(RuntimeError, match=r"web1 \(pid \d+\) exited with 3: see .*web1\.log"):
            stack.require_running()
    finally:
        alive.kill()
        alive.wait()
