"""``python -m mahjong.engine shanten``: the JSON-lines contract, through a real process."""

import json
import subprocess
import sys

import pytest


def run_cli(lines, *args):
    stdin = "".join(json.dumps(x) + "\n" if not isinstance(x, str) else x + "\n" for x in lines)
    done = subprocess.run(
        [sys.executable, "-m", "mahjong.engine", "shanten", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_one_answer_per_line_with_waits_only_when_ready():
    out = run_cli(
        [
            {"id": 1, "hand": "123m456p789s1122z"},
            {"id": 2, "hand": "123456789m1234z"},
            {"id": 3, "hand": "123m456p789s11222z"},
            {"id": "four", "hand": "1112345678999m"},
        ]
    )
    assert out == [
        {"id": 1, "shanten": 0, "waits": "12z"},
        {"id": 2, "shanten": 2},
        {"id": 3, "shanten": -1},
        {"id": "four", "shanten": 0, "waits": "123456789m"},
    ]


def test_a_ready_fourteen_tile_hand_has_no_waits_field():
    assert run_cli([{"id": 1, "hand": "123m456p789s11223z"}]) == [{"id": 1, "shanten": 0}]


def test_default_forms_are_standard_seven_pairs_and_thirteen_orphans():
    out = run_cli(
        [
            {"id": 1, "hand": "1122334455667m"},
            {"id": 2, "hand": "19m19p19s1234567z"},
            {"id": 3, "hand": "147m258p369s1234z"},
        ]
    )
    assert out == [
        {"id": 1, "shanten": 0, "waits": "147m"},
        {"id": 2, "shanten": 0, "waits": "19m19p19s1234567z"},
        {"id": 3, "shanten": 6},
    ]


def test_rules_select_the_forms_and_tiles():
    out = run_cli([{"id": 1, "hand": "147m258p369s1234z"}], "--rules", "gb")
    assert out == [{"id": 1, "shanten": 0, "waits": "567z"}]
    out = run_cli([{"id": 1, "hand": "1122334455667s"}], "--rules", "tiao72")
    assert out == [{"id": 1, "shanten": 0, "waits": "147s"}]


def test_dead_waits_make_a_hand_not_ready():
    assert run_cli([{"id": 1, "hand": "1111m234p567s999p"}]) == [{"id": 1, "shanten": 1}]


@pytest.mark.parametrize(
    "line,args,words",
    [
        ({"id": 1, "hand": "0m"}, (), "0m"),
        ({"id": 1, "hand": "123m456p789s1122"}, (), "suit"),
        ({"id": 1, "hand": "11111m"}, (), "5 copies"),
        ({"id": 1, "hand": "123m456p789s123z"}, (), "3n+1 or 3n+2"),
        (
            {"id": 1, "hand": "123m456p789s123p1122z"},
            ("--rules", "classic"),
            "not allowed in classic",
        ),
        ({"id": 1, "hand": "123m456p789s1122z3344z"}, (), "at most 14"),
        ({"id": 1, "hand": "123m456p789s1122z1f"}, (), "1f"),
        ({"id": 1, "hand": "123m456p789s1122z"}, ("--rules", "tiao72"), "not allowed in tiao72"),
        ({"id": 1, "hand": 123}, (), "notation"),
        ({"id": 1}, (), "hand"),
        ("not json", (), ""),
    ],
)
def test_bad_input_is_an_error_line_not_a_crash(line, args, words):
    out = run_cli([line, {"id": "next", "hand": "1m"}], *args)
    assert len(out) == 2 and "error" in out[0] and words in out[0]["error"]
    assert "shanten" not in out[0]
    assert out[1]["id"] == "next"
    if isinstance(line, dict):
        assert out[0]["id"] == 1


def test_unknown_rules_are_refused_by_the_argument_parser():
    done = subprocess.run(
        [sys.executable, "-m", "mahjong.engine", "shanten", "--rules", "nope"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "nope" in done.stderr
