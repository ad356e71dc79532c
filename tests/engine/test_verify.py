"""``python -m mahjong.engine verify``: rebuilds each hand's wall from its seed, checks
the commitment and the deal the players were given, one JSON verdict per line, and
exits 1 on any mismatch or unreadable line."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from mahjong.engine.cli import verify
from mahjong.engine.game import new_hand, next_hand
from mahjong.engine.rulesets import SLUGS, get_ruleset
from mahjong.engine.tiles import format_tile, format_tiles
from mahjong.engine.wall import build_wall


def published(state) -> dict:
    """A hand as a site publishes it: the commitment, then the seed and the deal."""
    return {
        "ruleset": state.ruleset.slug,
        "seed": state.seed.hex(),
        "commitment": state.commitment,
        "dealer": state.dealer,
        "deal": {
            "hands": [format_tiles(s.concealed) for s in state.seats],
            "flowers": [format_tiles(s.flowers) for s in state.seats],
            "indicator": None if state.indicator is None else format_tile(state.indicator),
        },
    }


def run_lines(lines: list[dict | str]) -> tuple[int, list[dict]]:
    stdin = io.StringIO("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    stdout = io.StringIO()
    code = verify.run(None, stdin, stdout)
    return code, [json.loads(line) for line in stdout.getvalue().splitlines()]


@pytest.mark.parametrize("slug", SLUGS)
def test_a_true_hand_of_every_ruleset_verifies(slug):
    state = new_hand(slug, f"verify-{slug}".encode())
    line = published(state)
    code, [verdict] = run_lines([{"id": slug, **line}])
    assert code == 0
    assert verdict["id"] == slug and verdict["ok"] is True
    assert verdict["commitment"] == "ok" and verdict["deal"] == "ok"
    assert verdict["rebuilt"]["hands"] == line["deal"]["hands"]


def test_a_later_hand_needs_its_dealer_and_verifies_with_it():
    first = new_hand("classic", b"first")
    later = next_hand(first.evolve(phase="ended"), _dealer_win(first), b"second")
    line = published(later)
    code, [verdict] = run_lines([line])
    assert code == 0 and verdict["dealer"] == later.dealer
    wrong = {**line, "dealer": 1 - later.dealer}
    code, [verdict] = run_lines([wrong])
    assert code == 1 and verdict["deal"] == "mismatch" and verdict["commitment"] == "ok"


def _dealer_win(state):
    from mahjong.engine.shapes import Outcome

    return Outcome("self_draw_win", winner=1 - state.dealer)


def test_without_a_dealer_the_first_hands_rule_applies():
    state = new_hand("gb", b"no dealer given")
    line = {k: v for k, v in published(state).items() if k != "dealer"}
    code, [verdict] = run_lines([line])
    assert code == 0 and verdict["dealer"] == state.dealer


def test_mismatches_are_named_and_the_exit_code_is_one():
    state = new_hand("classic", b"tampered")
    line = published(state)
    other = new_hand("classic", b"another seed")
    cases = [
        {**line, "commitment": other.commitment},
        {
            **line,
            "deal": {
                **line["deal"],
                "hands": [format_tiles(other.seats[0].concealed), line["deal"]["hands"][1]],
            },
        },
        {**line, "wall": format_tiles(build_wall(other.ruleset, other.seed)[0][:10])},
    ]
    code, verdicts = run_lines(cases)
    assert code == 1
    assert [v["ok"] for v in verdicts] == [False, False, False]
    assert verdicts[0]["commitment"] == "mismatch" and verdicts[0]["deal"] == "ok"
    assert verdicts[1]["mismatches"] == ["deal: seat 0's hands differ from the rebuilt deal"]
    assert verdicts[2]["mismatches"] == ["wall: the first tiles differ from the rebuilt wall"]


def test_the_commitment_alone_can_be_checked():
    state = new_hand("tiao72", b"just the hash")
    code, [verdict] = run_lines(
        [{"ruleset": "tiao72", "seed": state.seed.hex(), "commitment": state.commitment}]
    )
    assert code == 0 and verdict["deal"] == "not given"
    assert verdict["rebuilt"]["hands"] == [format_tiles(s.concealed) for s in state.seats]


def test_the_tables_overrides_are_read_and_validated_by_the_engine():
    overrides = {"haidi_draws": 2}
    state = new_hand(get_ruleset("classic", overrides), b"override")
    code, [verdict] = run_lines([{**published(state), "overrides": overrides}])
    assert code == 0 and verdict["ok"] is True
    code, [verdict] = run_lines([{**published(state), "overrides": {"haidi_draws": -1}}])
    assert code == 1 and "haidi_draws" in verdict["error"]


def test_bad_lines_get_an_error_each_and_the_good_ones_still_run():
    good = published(new_hand("quesheng", b"good"))
    code, verdicts = run_lines(
        [
            "{not json",
            {"ruleset": "nope", "seed": "00", "commitment": "x"},
            {"ruleset": "classic", "commitment": "x"},
            {**good, "dealer": 3},
            good,
        ]
    )
    assert code == 1
    assert [("error" in v) for v in verdicts] == [True, True, True, True, False]
    assert "seed" in verdicts[2]["error"] and "dealer" in verdicts[3]["error"]
    assert verdicts[4]["ok"] is True


def test_the_command_is_registered_and_reads_stdin():
    state = new_hand("classic", b"cli")
    proc = subprocess.run(
        [sys.executable, "-m", "mahjong.engine", "verify"],
        input=json.dumps(published(state)) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True


def test_the_first_tiles_of_the_wall_can_be_checked():
    state = new_hand("stage", b"wall front")
    wall, _unused = build_wall(state.ruleset, state.seed)
    line = {**published(state), "wall": format_tiles(wall[:12])}
    code, [verdict] = run_lines([line])
    assert code == 0 and verdict["rebuilt"]["wall"].startswith(line["wall"][:2])


def test_a_stage_hand_is_dealt_with_its_seeded_adjustments():
    """关卡 stage 4 (RULES.md 5.4.5): this seed's roll rigs the deal; the check deals as
    the table did when told the stage, and not without it."""
    state = new_hand("stage", b"rig2", stage=4)
    assert state.stage.bleed  # the rigged case
    line = {**published(state), "stage": 4, "stage_player": 0}
    code, [verdict] = run_lines([line])
    assert code == 0 and verdict["ok"] is True
    code, [verdict] = run_lines([{k: v for k, v in line.items() if k != "stage"}])
    assert code == 1 and verdict["deal"] == "mismatch" and verdict["commitment"] == "ok"
    code, [verdict] = run_lines([{**line, "stage": 9}])
    assert code == 1 and "stage" in verdict["error"]
