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


def test_each_stack_logs_to_a_folder_of_its_own_and_old_ones_are_pruned(tmp_path, monkeypatch):
    stack = bench_module("stack")
    monkeypatch.setattr(stack, "LOGS", tmp_path)
    for i in range(stack.KEEP_LOGS + 5):
        (tmp_path / f"20261201-0000{i:02d}-1").mkdir()
    (tmp_path / "web0.log").write_text("a file, not a run's folder: left alone")
    folder = stack.Stack().logs
    assert folder.parent == tmp_path and not folder.exists()  # made when the stack starts
    kept = sorted(p.name for p in tmp_path.iterdir() if p.is_dir())
    assert len(kept) == stack.KEEP_LOGS - 1 and kept[0] == "20261201-000006-1"
    assert (tmp_path / "web0.log").exists()
