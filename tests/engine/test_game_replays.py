"""Whole hands kept as data (``tests/engine/games/*.json``), in the spirit of perft files:
a seed (and optionally a scripted wall), the actions in notation, and the expected
outcome. Each replay must accept every action as legal and end exactly as recorded, so
any change to dealing, offers or flow that alters a recorded game shows up here."""

import json
from pathlib import Path

import pytest

from mahjong.engine.actions import parse_action
from mahjong.engine.game import apply, legal_actions, new_hand
from mahjong.engine.invariants import check_all
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.tiles import format_tile, format_tiles

GAMES = sorted((Path(__file__).parent / "games").glob("*.json"))


def start(game):
    seed = bytes.fromhex(game["seed"])
    if "wall" in game:
        return scripted_hand(
            game["ruleset"], seed=seed, dealer=game.get("dealer", 0), **game["wall"]
        )
    return new_hand(game["ruleset"], seed, dealer=game.get("dealer"))


def observed(state):
    outcome = state.outcome
    out = {
        "kind": outcome.kind,
        "winner": outcome.winner,
        "loser": outcome.loser,
        "robbed_kong": outcome.robbed_kong,
        "moves": state.moves,
    }
    if outcome.context is not None:
        ctx = outcome.context
        out.update(
            win=format_tile(ctx.win),
            hand=format_tiles(ctx.hand),
            melds=[str(m) for m in ctx.melds],
            tsumo=ctx.tsumo,
            ting=ctx.ting,
            flowers=format_tiles(ctx.flowers),
            passes=ctx.passes,
        )
    return out


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_recorded_hands_replay_to_their_outcome(path):
    game = json.loads(path.read_text())
    state = start(game)
    for move in game["actions"]:
        seat, text = move.split(" ", 1)
        action = parse_action(text)
        assert action in legal_actions(state, int(seat)), f"{move} not offered"
        state, _ = apply(state, int(seat), action)
    assert state.phase == "ended" and check_all(state) == []
    got = observed(state)
    assert {k: got[k] for k in game["expected"]} == game["expected"]


def test_there_are_recorded_hands_for_every_ruleset():
    rulesets = {json.loads(p.read_text())["ruleset"] for p in GAMES}
    assert rulesets == {"classic", "stage", "quesheng", "tiao72", "gb", "wenzhou"}
