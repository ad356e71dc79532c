"""The import contracts of pyproject.toml (`make check`): they hold on the tree, and an
upward import or a cycle inside an app breaks them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("mahjong", "accounts", "catalogue", "lobby")
LINT = str(Path(sys.executable).with_name("lint-imports"))


def lint(tree: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [LINT, "--no-cache"], cwd=tree, capture_output=True, text=True, timeout=300
    )


def copy_of_the_tree(tmp_path: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(
            ROOT / name,
            tmp_path / name,
            ignore=shutil.ignore_patterns("__pycache__", "locale", "*.bin"),
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_tree_keeps_every_contract(tmp_path):
    answer = lint(copy_of_the_tree(tmp_path))
    assert answer.returncode == 0, answer.stdout
    assert "2 kept, 0 broken" in answer.stdout


def test_an_upward_import_breaks_the_layers(tmp_path):
    tree = copy_of_the_tree(tmp_path)
    with (tree / "catalogue" / "models.py").open("a") as models:
        models.write("\nfrom mahjong.tables import services  # noqa: E402\n")
    answer = lint(tree)
    assert answer.returncode == 1
    assert "catalogue is not allowed to import mahjong.tables" in answer.stdout


def test_a_cycle_inside_an_app_breaks_the_other_contract(tmp_path):
    tree = copy_of_the_tree(tmp_path)
    with (tree / "mahjong" / "tables" / "services" / "errors.py").open("a") as errors:
        errors.write("\nfrom . import moves  # noqa: E402\n")
    answer = lint(tree)
    assert answer.returncode == 1
    assert "No cycles are allowed in mahjong.tables.services" in answer.stdout
