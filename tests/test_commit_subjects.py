"""Commit subjects are at most 72 characters, details in the body (.githooks/commit-msg
refuses longer ones at commit time; this catches a commit made without the hook). The
history before SINCE is left as it was written."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SINCE = "d508254"  # the last commit before the limit was kept
LIMIT = 72


def test_every_new_commit_subject_fits_72_characters():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    known = subprocess.run(
        ["git", "cat-file", "-e", f"{SINCE}^{{commit}}"], cwd=ROOT, capture_output=True
    )
    if known.returncode != 0:
        pytest.skip("a shallow clone without the starting commit")
    subjects = subprocess.run(
        ["git", "log", "--format=%h %s", f"{SINCE}..HEAD"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    long = [s for s in subjects if len(s.split(" ", 1)[1]) > LIMIT]
    assert long == []
