"""Bots in 关卡 stage hands (RULES.md 5.4): the computer seat is never offered anything,
and a bot playing the human seat (托管 auto-play of an absent player, or a bot-vs-bot
test) is offered the 起始换牌, 搓牌 and 游戏中换牌 like the player: every level plays such
hands to their end with legal moves, and the levels that play for a human decline the
offers (pass the exchange, discard past a 搓牌 or a triplet)."""

from types import SimpleNamespace

import pytest

from mahjong.engine.bots import LEVEL_SLUGS, choose_for, get_bot
from mahjong.engine.game import apply, default_action, legal_actions, new_hand, replay
from mahjong.engine.invariants import check_all
from mahjong.engine.rulesets import get_ruleset
from mahjong.engine.state import EXCHANGE, TURN
from mahjong.tables import bot_moves

OFFERS = {"exchange", "cuo", "swap"}
RULES = get_ruleset("stage", {"options": {"p_cuo": 0.3, "p_swap": 0.6}})


def play_with(levels, stage, seed, player):
    """A stage hand with ``levels[seat]`` bots on both seats; returns the decisions
    made while an offer was open to the player, as (phase, offer, action)."""
    start = new_hand(RULES, seed, stage=stage, stage_player=player)
    bots = [get_bot(level, f"{seed}-{seat}", RULES) for seat, level in enumerate(levels)]
    state, moves, at_offers = start, [], []
    while not state.ended:
        seat = state.turn
        offered = legal_actions(state, seat)
        action = choose_for(bots[seat], state, seat)
        assert action in offered, (levels[seat], str(action))
        if seat != player:
            assert not {a.verb for a in offered} & OFFERS
        elif state.stage.offer is not None:
            at_offers.append((state.phase, state.stage.offer, action))
        state, _ = apply(state, seat, action)
        moves.append((seat, str(action)))
        assert len(moves) < 400
    assert check_all(state) == []
    assert replay(start, moves)[0] == state
    return at_offers


@pytest.mark.parametrize("level", LEVEL_SLUGS)
def test_every_level_plays_the_human_seat_of_stage_hands_to_the_end(level):
    seen = set()
    for n in range(3):
        for decision in play_with(
            [level, "strong"] if n % 2 == 0 else ["strong", level],
            stage=2 + n,
            seed=f"bots-{level}-{n}",
            player=n % 2,
        ):
            seen.add(decision[1])
    assert "exchange" in seen and seen & {"cuo", "swap"}  # the bot met the offers


@pytest.mark.parametrize("level", ["efficient", "strong"])
def test_the_levels_that_play_for_a_human_decline_every_offer(level):
    for n in range(3):
        decisions = play_with([level, "random"], stage=4, seed=f"decline-{level}-{n}", player=0)
        assert decisions
        for phase, _offer, action in decisions:
            assert action.verb not in OFFERS
            if phase == EXCHANGE:
                assert action.verb == "pass"
            else:
                assert phase == TURN and action.verb in ("discard", "ting", "hu", "ankan", "addkan")


def test_auto_play_of_an_absent_player_passes_the_exchange_and_discards_past_an_offer():
    """tables.bot_moves.decide (托管 at the ``efficient`` level, or the timer's
    default_action for a present player) on the player's open offers."""
    away = SimpleNamespace(
        is_bot=False, bot_level=None, auto_play=False, disconnected_at=1, connections=0
    )
    here = SimpleNamespace(
        is_bot=False, bot_level=None, auto_play=False, disconnected_at=None, connections=1
    )
    state = new_hand(RULES, "toguan", stage=4, stage_player=0)
    assert state.phase == EXCHANGE and state.turn == 0
    assert bot_moves.decide(state, away, "s") == (default_action(state, 0), "auto")
    assert bot_moves.decide(state, here, "s")[0].verb == "pass"
    met = set()
    while not state.ended:
        seat = state.turn
        decided, how = bot_moves.decide(state, away if seat == 0 else here, "s")
        if seat == 0 and state.stage.offer is not None:
            met.add(state.stage.offer)
            assert decided.verb not in OFFERS and how == "auto"
            assert default_action(state, 0).verb in ("pass", "discard")
        state, _ = apply(state, seat, decided)
    assert met >= {"exchange"} and met & {"cuo", "swap"}
