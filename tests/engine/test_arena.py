"""The arena CLI (issue 6): duplicate matches between bot levels and the report's
format, on tiny runs."""

import re

import pytest

from mahjong.engine.__main__ import main
from mahjong.engine.cli import arena
from mahjong.engine.wall import seed_bytes


def run_cli(argv, capsys):
    code = main(argv)
    return code, capsys.readouterr().out


def test_the_arena_prints_both_sides_with_intervals_and_decision_times(capsys):
    code, out = run_cli(
        [
            "arena",
            "--rules",
            "classic",
            "--a",
            "efficient",
            "--b",
            "random",
            "--hands",
            "3",
            "--seed",
            "tiny",
        ],
        capsys,
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        "arena classic: A=efficient vs B=random, 3 walls x 2 seatings = 6 hands, seed tiny"
    )
    assert lines[1].split() == [
        "side",
        "level",
        "wins",
        "win%",
        "deal-in%",
        "points/hand",
        "95%",
        "CI",
    ]
    row = re.compile(
        r"^([AB])\s+(\w+)\s+(\d+)\s+([\d.]+)%\s+([\d.]+)%\s+([+-][\d.]+)\s+"
        r"\[([+-][\d.]+), ([+-][\d.]+)\]$"
    )
    sides = [row.match(line) for line in lines[2:4]]
    assert all(sides), lines[2:4]
    assert [m.group(2) for m in sides] == ["efficient", "random"]
    for m in sides:
        mean, low, high = float(m.group(6)), float(m.group(7)), float(m.group(8))
        assert low <= mean <= high
    assert re.match(
        r"^draws: \d+ \([\d.]+%\); decisive hands won by A: [\d.]+% \[[\d.]+, [\d.]+\] of \d+$",
        lines[4],
    )
    assert re.match(
        r"^A - B points per hand: [+-][\d.]+  95% CI \[[+-][\d.]+, [+-][\d.]+\]$", lines[5]
    )
    for line, name in zip(lines[6:8], ("A (efficient)", "B (random)")):
        assert re.match(
            rf"^decision time {re.escape(name)}: median [\d.]+ ms, p99 [\d.]+ ms, "
            r"max [\d.]+ ms over \d+ decisions$",
            line,
        )
    for line, name in zip(lines[8:10], ("A (efficient)", "B (random)")):
        assert re.match(
            rf"^decision cpu {re.escape(name)}: median [\d.]+ ms, p99 [\d.]+ ms, "
            r"max [\d.]+ ms$",
            line,
        )
    assert lines[10].startswith("cpu: ")


def test_each_wall_is_played_twice_with_the_seats_swapped():
    result = arena.arena("quesheng", "efficient", "efficient", 4, seed_bytes("mirror"))
    a, b = result["sides"]
    assert result["hands"] == 8
    assert a.wins + b.wins + result["draws"] == 8
    # the same level on both sides of the same walls: every wall's two deals mirror
    assert a.wins == b.wins and a.points == pytest.approx(b.points)


def test_the_same_seed_gives_the_same_match():
    one = arena.arena("gb", "strong", "novice", 2, seed_bytes("same"))
    two = arena.arena("gb", "strong", "novice", 2, seed_bytes("same"))
    assert [s.points for s in one["sides"]] == [s.points for s in two["sides"]]
    assert [s.wins for s in one["sides"]] == [s.wins for s in two["sides"]]


def test_the_arena_refuses_no_hands_and_unknown_levels(capsys):
    assert (
        main(
            [
                "arena",
                "--rules",
                "gb",
                "--a",
                "strong",
                "--b",
                "random",
                "--hands",
                "0",
                "--seed",
                "x",
            ]
        )
        == 2
    )
    assert "--hands must be >= 1" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(
            [
                "arena",
                "--rules",
                "gb",
                "--a",
                "grandmaster",
                "--b",
                "random",
                "--hands",
                "1",
                "--seed",
                "x",
            ]
        )
    assert (
        main(
            [
                "arena",
                "--rules",
                "gb",
                "--a",
                "strong",
                "--b",
                "random",
                "--hands",
                "1",
                "--seed",
                "x",
                "--stage",
                "2",
            ]
        )
        == 2
    )
    assert "--stage needs --rules stage" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(
            [
                "arena",
                "--rules",
                "stage",
                "--a",
                "strong",
                "--b",
                "random",
                "--hands",
                "1",
                "--seed",
                "x",
                "--stage",
                "5",
            ]
        )


def test_intervals_and_percentiles():
    mean, low, high = arena.mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and low < 2.5 < high
    share, low, high = arena.proportion_ci(9, 10)
    assert share == 0.9 and 0.5 < low < 0.9 < high <= 1.0
    assert arena.percentile([5.0, 1.0, 3.0], 0.5) == 3.0
    assert arena.report(
        {
            "slug": "gb",
            "walls": 1,
            "hands": 2,
            "draws": 2,
            "cpu_seconds": 0.0,
            "sides": (arena.Side("strong"), arena.Side("random")),
        },
        None,
    )


# ----- stage (关卡): the player role goes to the side in seat 0 ----------------------------
STAGE_ARGS = [
    "arena",
    "--rules",
    "stage",
    "--stage",
    "3",
    "--a",
    "efficient",
    "--b",
    "random",
    "--hands",
    "6",
    "--seed",
    "stage-arena",
]
TIMING = ("decision time", "decision cpu", "cpu:")


def test_a_stage_arena_prints_the_same_match_twice_for_a_seed(capsys):
    code, first = run_cli(STAGE_ARGS, capsys)
    assert code == 0
    _code, second = run_cli(STAGE_ARGS, capsys)
    untimed = [
        [line for line in out.splitlines() if not line.startswith(TIMING)]
        for out in (first, second)
    ]
    assert untimed[0] == untimed[1]
    assert untimed[0][0] == (
        "arena stage: A=efficient vs B=random, 6 walls x 2 seatings = 12 hands, seed stage-arena"
    )
    assert untimed[0][-3] == (
        "stage 3 (stake 1000), in the player role (seat 0, offers and rigged deals):"
    )


def test_stage_walls_give_each_side_the_player_role_once_on_the_same_deal():
    result = arena.arena("stage", "efficient", "efficient", 4, seed_bytes("stage-mirror"), stage=3)
    a, b = result["sides"]
    assert result["stake"] == 1000
    assert len(a.player_points) == len(b.player_points) == 4
    # the player role's score change is the computer role's loss: each wall is zero-sum
    assert [x + y for x, y in zip(a.points, b.points)] == [0.0] * 4
    # the same level in the same role on the same deal plays the same hand
    assert a.player_points == b.player_points and a.wins == b.wins
    assert all(p >= -1000 for p in a.player_points)  # a lost hand costs the stake, no more


def test_efficient_beats_random_at_stage_3(capsys):
    _code, out = run_cli(STAGE_ARGS, capsys)
    diff = re.search(r"^A - B points per hand: ([+-][\d.]+)  95% CI \[([+-][\d.]+), ", out, re.M)
    assert float(diff.group(2)) > 0, out
    roles = dict(
        re.findall(
            r"^player ([AB]) \(\w+\): wins \d+ of 6, score change per hand "
            r"([+-][\d.]+)",
            out,
            re.M,
        )
    )
    assert float(roles["A"]) > float(roles["B"]), out


def test_stage_needs_its_stage_and_only_stage_takes_one():
    with pytest.raises(ValueError):
        arena.arena("stage", "efficient", "random", 1, b"x")
    with pytest.raises(ValueError):
        arena.arena("classic", "efficient", "random", 1, b"x", stage=2)
