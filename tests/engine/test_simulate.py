"""The ``simulate`` CLI contract (issue 2 item 7): random legal self-play with the
invariants checked after every action, and an exact last line."""

import re
import subprocess
import sys

import pytest

from mahjong.engine.bots import RandomBot
from mahjong.engine.cli.simulate import play_hand, simulate
from mahjong.engine.game import new_hand
from mahjong.engine.rulesets import SLUGS

LAST_LINE = re.compile(
    r"^(\d+) hands, (\d+) actions, (\d+) invariant violations, (\d+\.\d) hands/s$"
)


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "mahjong.engine", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_cli_plays_the_hands_and_ends_with_the_summary_line():
    done = run_cli("--rules", "classic", "--hands", "5", "--seed", "42")
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.strip().splitlines()[-1]
    match = LAST_LINE.match(last)
    assert match, last
    assert match.group(1) == "5" and int(match.group(2)) > 0 and match.group(3) == "0"


def test_the_same_seed_replays_the_same_games():
    first = simulate("quesheng", 3, b"same", checks=False)
    second = simulate("quesheng", 3, b"same", checks=False)
    assert (first["actions"], first["outcomes"]) == (second["actions"], second["outcomes"])


@pytest.mark.parametrize("slug", SLUGS)
def test_every_ruleset_plays_whole_hands_without_violations(slug):
    result = simulate(slug, 3, slug.encode())
    assert result["violations"] == 0 and result["hands"] == 3
    assert sum(result["outcomes"].values()) == 3


def test_a_violation_is_reported_and_makes_the_exit_code_non_zero(monkeypatch):
    import mahjong.engine.cli.simulate as cli

    monkeypatch.setattr(cli, "check_all", lambda state: ["tiles not accounted for: test"])
    state, played, problems = play_hand(new_hand("classic", b"x"), RandomBot(b"x"), True)
    assert problems == ["tiles not accounted for: test"] and played == 0

    class Args:
        rules, hands, seed, no_checks = "classic", 1, "1", False

    import io

    out = io.StringIO()
    assert cli.run(Args, io.StringIO(), out) == 1
    assert "tiles not accounted for" in out.getvalue()
    assert (
        out.getvalue()
        .strip()
        .splitlines()[-1]
        .startswith("1 hands, 0 actions, 1 invariant violations")
    )
