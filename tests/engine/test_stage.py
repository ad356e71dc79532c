"""关卡 stage hands (RULES.md 5.1, 5.2, 5.4.3, 5.4.5): the 71 playing tiles and the
reserve, the stage table and its cumulative features, 五张海底摸牌 and the rigged deals."""

from collections import Counter

import pytest
from test_fans_support import score

from mahjong.engine.errors import EngineError
from mahjong.engine.game import apply, new_hand, next_hand, parse_action
from mahjong.engine.invariants import check_all
from mahjong.engine.rulesets import get_ruleset
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.stage import STAGES, stage_level
from mahjong.engine.stage_deal import REGULAR_TARGETS, TARGET_SPREAD, YAKUMAN_TARGETS
from mahjong.engine.state import EXCHANGE, GameState, Session
from mahjong.engine.tiles import parse_tiles
from mahjong.engine.wall import build_wall, seed_bytes


def stage_rules(**options):
    return get_ruleset("stage", {"options": options})


def test_the_stage_table_and_cumulative_features():
    assert [(s.pass_score, s.start_score, s.stake) for s in STAGES] == [
        (4000, 1500, 300),
        (10000, 3000, 600),
        (20000, 5000, 1000),
        (50000, 10000, 2500),
    ]
    assert stage_level(1).features == ("streak_bonus",)
    assert stage_level(4).features == (
        "streak_bonus",
        "start_exchange",
        "five_haidi",
        "draw_any",
        "bleed",
        "bleed_yakuman",
    )
    with pytest.raises(EngineError, match="no stage 5"):
        stage_level(5)


@pytest.mark.parametrize("stage, reserve", [(1, 3), (2, 5), (3, 5), (4, 5)])
def test_71_of_136_tiles_play_and_the_reserve_comes_from_the_other_65(stage, reserve):
    seed = seed_bytes("box")
    state = new_hand(stage_rules(p_bleed=0.0, p_bleed_yakuman=0.0), seed, stage=stage)
    playing, left_out = build_wall(state.ruleset, seed)
    assert len(state.ruleset.tile_set) == 136 and len(playing) == 71
    assert len(state.live) == 71 - 27 and len(state.reserve) == reserve
    assert state.ruleset.haidi_draws == reserve
    assert state.reserve == left_out[:reserve] and len(state.unused) == 65 - reserve
    in_hands = Counter(state.seats[0].concealed) + Counter(state.seats[1].concealed)
    assert in_hands + Counter(state.live) == Counter(playing)
    assert check_all(state) == []


def test_the_stage_rides_the_session_to_the_next_hand():
    state = new_hand("stage", "s", stage=2, stage_player=1)
    assert state.session.stage == 2 and state.session.stage_player == 1
    assert state.phase == EXCHANGE and state.turn == 1
    state, _ = apply(state, 1, parse_action("pass"))
    from mahjong.engine.game import escape

    ended, _ = escape(state, 0)
    after = next_hand(ended, None, "t")
    assert after.session.stage == 2 and after.phase == EXCHANGE and after.ruleset.haidi_draws == 5
    assert GameState.from_json(after.to_json()) == after


def test_stage_one_starts_with_the_dealer_and_no_offer():
    state = new_hand("stage", 7, stage=1)
    assert state.phase == "turn" and state.turn == state.dealer
    assert state.stage.offer is None and state.stage.bleed is None


@pytest.mark.parametrize("name, tiles", sorted(REGULAR_TARGETS.items()))
def test_regular_bleed_targets_are_worth_at_least_6_fan_on_a_discard(name, tiles):
    kinds = parse_tiles(tiles)
    result = score("stage", f"{_without_last(kinds)} {_tile(kinds[-1])}")
    assert result.is_win and not result.yakuman and result.total >= 6, name


@pytest.mark.parametrize("name, tiles", sorted(YAKUMAN_TARGETS.items()))
def test_yakuman_bleed_targets_are_yakuman_when_self_drawn(name, tiles):
    kinds = parse_tiles(tiles)
    result = score("stage", f"{_without_last(kinds)} {_tile(kinds[-1])} tsumo")
    assert result.is_win and result.yakuman, name


def _tile(kind):
    from mahjong.engine.tiles import format_tile

    return format_tile(kind)


def _without_last(kinds):
    from mahjong.engine.tiles import format_tiles

    return format_tiles(sorted(kinds[:-1]))


def _bleed_hand(stage, seed, **options):
    for n in range(200):  # the first seed whose roll rigs the deal
        state = new_hand(stage_rules(**options), f"{seed}-{n}", stage=stage, stage_player=0)
        if state.stage.bleed:
            return state
    raise AssertionError("no rigged deal in 200 seeds")


@pytest.mark.parametrize(
    "stage, options, targets",
    [
        (3, {"p_bleed": 1.0}, REGULAR_TARGETS),
        (4, {"p_bleed_yakuman": 1.0}, YAKUMAN_TARGETS),
    ],
)
def test_a_rigged_deal_gives_10_target_tiles_and_hides_4_early_in_the_wall(stage, options, targets):
    state = _bleed_hand(stage, "bleed", **options)
    target = Counter(parse_tiles(targets[state.stage.bleed]))
    hand = Counter(state.seats[0].concealed)
    early = Counter(state.live[:TARGET_SPREAD])
    dealt = target & hand
    assert sum(dealt.values()) >= 10
    # whatever of the target the hand lacks is among the first 16 live tiles
    assert not (target - hand) - early
    assert check_all(state) == []


def test_stage_three_never_rigs_a_yakuman_and_stage_two_never_rigs():
    for n in range(30):
        s3 = new_hand(stage_rules(p_bleed=1.0, p_bleed_yakuman=1.0), n, stage=3)
        assert s3.stage.bleed in REGULAR_TARGETS
        s2 = new_hand(stage_rules(p_bleed=1.0, p_bleed_yakuman=1.0), n, stage=2)
        assert s2.stage.bleed is None


def test_rigged_deals_are_rebuilt_from_the_seed():
    rs = stage_rules(p_bleed_yakuman=0.5, p_bleed=0.5)
    for n in range(10):
        a, b = new_hand(rs, n, stage=4), new_hand(rs, n, stage=4)
        assert a == b


def test_the_bleed_target_is_revealed_only_at_the_end():
    from mahjong.engine.game import escape
    from mahjong.engine.views import view

    state = _bleed_hand(4, "reveal", p_bleed_yakuman=1.0)
    assert view(state, 0)["stage"]["bleed"] is None
    state, _ = apply(state, 0, parse_action("pass"))
    ended, _ = escape(state, 0)
    assert view(ended, 0)["stage"]["bleed"] == state.stage.bleed


def _discard_to_the_end(state):
    """Both seats throw what they draw, pass every claim and the 起始换牌, until the
    wall runs out: the events on the way."""
    events = []
    while state.phase not in ("haidi", "ended"):
        seat, player = state.turn, state.seat(state.turn)
        if state.phase == "turn":
            tile = player.drawn if player.drawn is not None else player.concealed[-1]
            action = parse_action(f"discard {_tile(tile)}")
        else:
            action = parse_action("pass")
        state, more = apply(state, seat, action)
        events += more
    return state, events


@pytest.mark.parametrize("stage, draws", [(1, 3), (2, 5)])
def test_five_haidi_draws_from_stage_two(stage, draws):
    # both hands stay ready to the wall's end: the 海底捞月 phase draws 3, or 5 from stage 2
    state = scripted_hand(
        "stage",
        dealer_hand="1112345678999m5z",
        other_hand="19m19p19s1234567z",
        session=Session(dealer=0, stage=stage, stage_player=0),
        seed=stage,
    )
    assert state.ruleset.haidi_draws == draws and len(state.reserve) == draws
    state, events = _discard_to_the_end(state)
    haidi = [e for e in events if e["type"] == "haidi"]
    assert haidi and haidi[0]["draws"] == draws
    while state.phase == "haidi":
        state, _ = apply(state, state.turn, parse_action("pass"))
    assert len(state.haidi_shown) <= draws and check_all(state) == []
