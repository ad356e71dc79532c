"""The wall no one can choose (issue 30 item 9): the wall's seed is derived from the
server's committed seed and both players' contributions; a seat without one is written as
empty, no contribution at all is the server's seed as before, and ``verify`` rebuilds the
wall from all three parts."""

import hashlib
import io
import json

import pytest

from mahjong.engine.cli import verify
from mahjong.engine.errors import EngineError
from mahjong.engine.game import new_hand, next_hand
from mahjong.engine.shapes import Outcome
from mahjong.engine.state import GameState
from mahjong.engine.tiles import format_tiles
from mahjong.engine.wall import build_wall, contribution, matches_commitment, wall_seed

SERVER = bytes(range(32))
MINE, THEIRS = "ab" * 32, "0f" * 32


def test_the_wall_seed_is_sha256_of_the_server_seed_and_both_contributions_in_hex():
    text = f"mahjong-wall|{SERVER.hex()}|{MINE}|{THEIRS}"
    assert wall_seed(SERVER, (MINE, THEIRS)) == hashlib.sha256(text.encode()).digest()
    # a seat without one is written as empty; the order of the seats counts
    assert (
        wall_seed(SERVER, ("", THEIRS))
        == hashlib.sha256(f"mahjong-wall|{SERVER.hex()}||{THEIRS}".encode()).digest()
    )
    assert wall_seed(SERVER, (MINE, THEIRS)) != wall_seed(SERVER, (THEIRS, MINE))


def test_without_any_contribution_the_wall_is_the_server_seeds_as_before():
    assert wall_seed(SERVER) == SERVER
    assert new_hand("classic", SERVER) == new_hand("classic", SERVER, contributions=("", ""))


@pytest.mark.parametrize("contributions", [(MINE, ""), ("", THEIRS), (MINE, THEIRS)])
def test_each_contribution_changes_the_wall_but_not_the_commitment(contributions):
    alone = new_hand("classic", SERVER, 0)
    shared = new_hand("classic", SERVER, 0, contributions=contributions)
    assert shared.commitment == alone.commitment  # the server's seed, committed first
    assert shared.live != alone.live
    assert shared.live == new_hand("classic", SERVER, 0, contributions=contributions).live


def test_a_contribution_is_64_hex_digits_or_nothing():
    assert contribution("AB" * 32) == "ab" * 32 and contribution("") == ""
    for bad in ("ab", "zz" * 32, "ab" * 33, "ab" * 31 + "g1"):
        with pytest.raises(EngineError, match="64 hex digits"):
            new_hand("classic", SERVER, contributions=(bad, ""))


def test_the_contributions_survive_the_json_round_trip_and_old_json_reads_without_them():
    state = new_hand("gb", SERVER, contributions=(MINE, ""))
    assert GameState.from_json(state.to_json()) == state
    plain = new_hand("gb", SERVER).to_dict()
    assert "contributions" not in plain  # stored hands keep their JSON as it was
    assert GameState.from_dict(plain).contributions == ("", "")


def test_the_next_hand_draws_its_wall_and_a_random_dealer_from_all_three():
    first = new_hand("quesheng", SERVER).evolve(phase="ended")
    won = Outcome("self_draw_win", winner=0)
    later = next_hand(first, won, b"next", contributions=(MINE, THEIRS))
    assert later.contributions == (MINE, THEIRS)
    assert later.live != next_hand(first, won, b"next").live


def run_verify(line: dict) -> dict:
    out = io.StringIO()
    verify.run(None, io.StringIO(json.dumps(line) + "\n"), out)
    return json.loads(out.getvalue())


def test_verify_rebuilds_the_wall_from_the_seed_and_both_contributions():
    state = new_hand("classic", SERVER, contributions=(MINE, THEIRS))
    line = {
        "ruleset": "classic",
        "seed": SERVER.hex(),
        "commitment": state.commitment,
        "contributions": [MINE, THEIRS],
        "deal": {"hands": [format_tiles(s.concealed) for s in state.seats]},
    }
    verdict = run_verify(line)
    assert verdict["ok"] and verdict["deal"] == "ok"
    assert verdict["rebuilt"]["wall_seed"] == wall_seed(SERVER, (MINE, THEIRS)).hex()
    assert verdict["rebuilt"]["wall"] == format_tiles(build_wall(state.ruleset, state.wall_seed)[0])
    assert verdict["rebuilt"]["server_seed_only"] == []
    assert matches_commitment(SERVER, state.salt, state.commitment)
    # without them (or with another) the same seed deals other hands: the check fails
    for other in (None, [MINE, ""], [THEIRS, MINE]):
        tampered = (
            {**line, "contributions": other}
            if other
            else {k: v for k, v in line.items() if k != "contributions"}
        )
        verdict = run_verify(tampered)
        assert not verdict["ok"] and verdict["commitment"] == "ok"
        assert verdict["deal"] == "mismatch"


def test_verify_names_the_seats_that_used_the_server_seed_only():
    state = new_hand("classic", SERVER, 1, contributions=("", THEIRS))
    verdict = run_verify(
        {
            "ruleset": "classic",
            "seed": SERVER.hex(),
            "dealer": 1,
            "commitment": state.commitment,
            "contributions": ["", THEIRS],
        }
    )
    assert verdict["ok"] and verdict["rebuilt"]["server_seed_only"] == [0]
    bad = run_verify(
        {
            "ruleset": "classic",
            "seed": SERVER.hex(),
            "commitment": state.commitment,
            "contributions": "ab",
        }
    )
    assert "error" in json.dumps(bad)
