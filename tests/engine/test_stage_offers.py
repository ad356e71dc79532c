"""The stage offers as engine actions (RULES.md 5.4.2, 5.4.4): offered only to the
player and only when rolled, validated, applied, logged, replayed, and seen only by the
player. Every roll comes from the hand's seed."""

from collections import Counter
from itertools import combinations

import pytest

from mahjong.engine.actions import Action
from mahjong.engine.errors import IllegalAction, InvalidAction
from mahjong.engine.game import apply, default_action, legal_actions, new_hand, parse_action, replay
from mahjong.engine.invariants import check_all
from mahjong.engine.rulesets import get_ruleset
from mahjong.engine.state import GameState, Session
from mahjong.engine.tiles import format_tile, format_tiles
from mahjong.engine.views import event_for, view

NO_BLEED = {"p_bleed": 0.0, "p_bleed_yakuman": 0.0}


def ruleset(**options):
    return get_ruleset("stage", {"options": {**NO_BLEED, **options}})


def verbs(state, seat):
    return {a.verb for a in legal_actions(state, seat)}


def until(state, wanted, limit=200):
    """Play plainly (discard the drawn tile, pass claims and the exchange) until
    ``wanted(state)``; returns the state and the moves made."""
    moves = []
    while not wanted(state):
        assert not state.ended and len(moves) < limit
        seat, player = state.turn, state.seat(state.turn)
        if state.phase == "turn":
            tile = player.drawn if player.drawn is not None else player.concealed[-1]
            action = Action("discard", (tile,))
        else:
            action = parse_action("pass")
        state, _ = apply(state, seat, action)
        moves.append((seat, str(action)))
    return state, moves


def player_offer(kind):
    return lambda s: s.stage.offer == kind and s.turn == s.session.stage_player


# ----- 起始换牌 ----------------------------------------------------------------------


def test_the_start_exchange_swaps_the_chosen_tiles_with_live_wall_tiles():
    state = new_hand(ruleset(), "ex", stage=2, stage_player=0)
    assert state.phase == "exchange" and state.turn == 0
    offered = legal_actions(state, 0)
    hand = state.seat(0).concealed
    assert offered == [
        *(Action("exchange", (k,)) for k in sorted(set(hand))),
        Action("exchange", hand),
        Action("pass"),
    ]
    assert legal_actions(state, 1) == []
    give = state.seat(0).concealed[:3]
    after, events = apply(state, 0, Action("exchange", give))
    assert after.phase == "turn" and after.turn == after.dealer and after.stage.exchanged == 3
    assert len(after.live) == len(state.live)
    got = Counter(after.seat(0).concealed) - (Counter(state.seat(0).concealed) - Counter(give))
    assert sum(got.values()) == 3
    # the wall changed only where the given tiles went
    diff = [i for i, (a, b) in enumerate(zip(state.live, after.live)) if a != b]
    assert sorted(after.live[i] for i in diff) == sorted(t for t in give if t not in got) or diff
    assert check_all(after) == []
    event = events[0]
    assert event["type"] == "exchange" and event["count"] == 3
    assert event_for(event, 1) == {"type": "exchange", "seat": 0, "count": 3, "private": 0}
    assert event_for(event, 0)["gave"] == format_tiles(give)


def test_the_exchange_refuses_tiles_not_in_hand_and_a_pass_keeps_the_hand():
    state = new_hand(ruleset(), "ex2", stage=2, stage_player=0)
    hand = Counter(state.seat(0).concealed)
    missing = next(k for k in range(34) if not hand[k])
    with pytest.raises(IllegalAction):
        apply(state, 0, Action("exchange", (missing,)))
    with pytest.raises(IllegalAction):
        apply(state, 1, parse_action("pass"))
    assert default_action(state, 0) == Action("pass")
    after, _ = apply(state, 0, parse_action("pass"))
    assert after.seat(0) == state.seat(0) and after.live == state.live and after.phase == "turn"
    with pytest.raises(IllegalAction):  # once per hand
        apply(after, after.turn, Action("exchange", after.seat(after.turn).concealed[:1]))


def test_stage_one_has_no_exchange():
    state = new_hand(ruleset(), "ex3", stage=1)
    assert state.phase == "turn" and "exchange" not in verbs(state, state.turn)


# ----- 搓牌 ----------------------------------------------------------------------------


def test_cuo_offers_every_live_kind_and_puts_the_drawn_tile_in_its_place():
    state = new_hand(ruleset(p_cuo=1.0), "cuo", stage=3, stage_player=0)
    state, _ = until(state, player_offer("cuo"))
    player = state.seat(0)
    offered = [a for a in legal_actions(state, 0) if a.verb == "cuo"]
    assert [a.tile for a in offered] == sorted(set(state.live))
    shown = view(state, 0)["stage"]["offer"]
    assert shown == {
        "kind": "cuo",
        "wall": {format_tile(k): n for k, n in sorted(Counter(state.live).items())},
    }
    wanted = max(set(state.live) - {player.drawn})
    after, events = apply(state, 0, Action("cuo", (wanted,)))
    assert after.seat(0).drawn == wanted and after.stage.offer is None and after.stage.cuo == 1
    assert Counter(after.live) == Counter(state.live) - Counter([wanted]) + Counter([player.drawn])
    assert check_all(after) == []
    assert "cuo" not in verbs(after, 0)  # at most one per turn
    assert event_for(events[0], 1) == {"type": "cuo", "seat": 0, "private": 0}
    with pytest.raises(IllegalAction):
        apply(state, 0, Action("cuo", (next(k for k in range(34) if k not in state.live),)))


def test_an_unused_offer_expires_with_the_discard():
    state = new_hand(ruleset(p_cuo=1.0), "cuo2", stage=3, stage_player=0)
    state, _ = until(state, player_offer("cuo"))
    after, _ = apply(state, 0, Action("discard", (state.seat(0).drawn,)))
    assert after.turn == 1 and after.stage.offer is None


def test_the_computer_never_gets_an_offer_or_sees_one():
    state = new_hand(ruleset(p_cuo=1.0), "cpu", stage=4, stage_player=0)
    for _ in range(30):
        state, _ = until(
            state, lambda s: s.phase == "turn" and s.turn == 1 and s.seat(1).drawn is not None
        )
        assert not verbs(state, 1) & {"cuo", "swap", "exchange"}
        assert view(state, 1)["stage"]["offer"] is None
        state, _ = apply(state, 1, Action("discard", (state.seat(1).drawn,)))
        if state.ended or len(state.live) < 4:
            break
        if player_offer("cuo")(state):
            assert view(state, 1)["stage"]["offer"] is None
            assert view(state, None)["stage"]["offer"] is None


def test_no_offers_before_stage_three_or_while_ready():
    state = new_hand(ruleset(p_cuo=1.0, p_swap=1.0), "s2", stage=2, stage_player=0)
    state, _ = until(state, lambda s: len(s.live) < 30)
    assert state.stage.offer is None
    # a ready (报听) player gets no offer
    from mahjong.engine.scripted import scripted_hand
    from mahjong.engine.state import Session

    state = scripted_hand(
        ruleset(p_cuo=1.0, p_swap=1.0),
        dealer_hand="1112345678999m5z",
        other_hand="19p19s1234567z66p",
        draws="2p3p4p5p6p7p8p",
        session=Session(dealer=0, stage=3, stage_player=0),
    )
    state, _ = apply(state, 0, parse_action("pass"))  # no 起始换牌
    state, _ = apply(state, 0, parse_action("ting 5z"))
    state, _ = until(state, lambda s: s.turn == 0 and s.phase == "turn")
    assert state.seat(0).locked and state.stage.offer is None
    assert not verbs(state, 0) & {"cuo", "swap"}


# ----- 游戏中换牌 -----------------------------------------------------------------------


def test_swap_offers_a_live_triplet_for_any_three_concealed_tiles():
    state = new_hand(ruleset(p_swap=1.0), "swap", stage=3, stage_player=0)
    state, _ = until(state, player_offer("swap"))
    kind = state.stage.swap_kind
    assert Counter(state.live)[kind] >= 3
    hand = state.seat(0).hand
    assert [a for a in legal_actions(state, 0) if a.verb == "swap"] == [
        Action("swap", give) for give in sorted(set(combinations(sorted(hand), 3)))
    ]
    assert view(state, 0)["stage"]["offer"] == {
        "kind": "swap",
        "triplet": format_tiles((kind,) * 3),
        "choose": 3,
    }
    with pytest.raises(IllegalAction, match="exactly 3"):
        apply(state, 0, Action("swap", hand[:2]))
    give = tuple(sorted(hand)[:3])
    after, events = apply(state, 0, Action("swap", give))
    assert Counter(after.seat(0).hand) == Counter(hand) - Counter(give) + Counter([kind] * 3)
    assert Counter(after.live) == Counter(state.live) - Counter([kind] * 3) + Counter(give)
    assert after.stage.offer is None and after.stage.swaps == 1 and check_all(after) == []
    assert event_for(events[0], 1) == {"type": "swap", "seat": 0, "private": 0}
    # the player still discards
    assert {a.verb for a in legal_actions(after, 0)} >= {"discard"}


def test_the_swap_refuses_tiles_the_player_does_not_hold():
    state = new_hand(ruleset(p_swap=1.0), "swap2", stage=3, stage_player=0)
    state, _ = until(state, player_offer("swap"))
    hand = Counter(state.seat(0).hand)
    missing = next(k for k in range(34) if not hand[k])
    with pytest.raises(IllegalAction):
        apply(state, 0, Action("swap", (missing, missing, missing)))


# ----- every listed choice applies; anything else is refused --------------------------

REPRO_SEED = "1925d34d7031cc801804c23278023793b45c13b8d9d9703b23fe58e0b1ecf06a"


def repro_swap_offer():
    """Hand 3 of a stage-3 session (dealer 1) where the player is offered a triplet."""
    state = new_hand("stage", REPRO_SEED, session=Session(hand_number=3, dealer=1, stage=3))
    state, _ = replay(state, [(0, "pass"), (1, "discard 3p"), (0, "discard 7s"), (1, "discard 1s")])
    assert player_offer("swap")(state) and len(state.seat(0).hand) == 14
    return state


def test_regression_a_swap_of_the_whole_hand_is_refused_and_changes_nothing():
    state = repro_swap_offer()
    before = state.to_json()
    whole = Action("swap", tuple(sorted(state.seat(0).hand)))
    assert format_tiles(whole.tiles) == "12678m2358p256s44z"
    assert whole not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="exactly 3 tiles, not 14"):
        apply(state, 0, whole)
    with pytest.raises(InvalidAction):  # the notation refuses it before the engine does
        parse_action("swap 12678m2358p256s44z")
    with pytest.raises(IllegalAction, match="swap: 4z not in your hand") as err:
        apply(state, 0, parse_action("swap 444z"))  # two 4z held, not three
    assert err.value.code == "not_held" and err.value.facts == {"tiles": "4z"}  # for the page
    with pytest.raises(IllegalAction, match="9s not in your hand"):
        apply(state, 0, parse_action("swap 12m9s"))
    with pytest.raises(IllegalAction):  # not the open offer's verb
        apply(state, 0, Action("exchange", state.seat(0).hand[:1]))
    with pytest.raises(IllegalAction):  # out of turn
        apply(state, 1, parse_action("swap 126m"))
    assert state.to_json() == before


def test_every_listed_swap_applies_and_play_goes_on():
    state = repro_swap_offer()
    swaps = [a for a in legal_actions(state, 0) if a.verb == "swap"]
    assert len(swaps) == len(set(swaps)) == len(set(combinations(sorted(state.seat(0).hand), 3)))
    for action in swaps:
        after, _ = apply(state, 0, action)
        assert check_all(after) == [] and len(after.seat(0).hand) == 14
        assert {a.verb for a in legal_actions(after, 0)} >= {"discard"}
        assert after.stage.offer is None and "swap" not in verbs(after, 0)


def test_the_exchange_lists_representative_choices_and_allows_any_part_of_the_hand():
    state = new_hand(ruleset(), "ex4", stage=2, stage_player=0)
    hand = state.seat(0).hand
    offered = legal_actions(state, 0)
    for action in offered:  # every listed action applies
        after, _ = apply(state, 0, action)
        assert check_all(after) == [] and after.phase == "turn"
        assert Counter(after.seat(0).hand).total() == len(hand)
    part = hand[1::3]  # not listed, still allowed
    assert Action("exchange", part) not in offered
    after, _ = apply(state, 0, Action("exchange", part))
    assert after.stage.exchanged == len(part) and check_all(after) == []
    before = state.to_json()
    kind = max(hand, key=hand.count)
    for bad, why in (
        ((kind,) * (hand.count(kind) + 1), "not in your hand"),
        ((), "at least one tile"),
        ((*hand, hand[0]), "not in your hand"),
    ):
        with pytest.raises(IllegalAction, match=why):
            apply(state, 0, Action("exchange", bad))
    assert state.to_json() == before


# ----- rolls from the seed; replays ------------------------------------------------------


def test_offer_rolls_follow_the_probabilities():
    counts = Counter()
    for n in range(40):
        state = new_hand(ruleset(p_cuo=0.5, p_swap=0.5), f"roll{n}", stage=3, stage_player=0)
        state, _ = until(
            state, lambda s: s.turn == 0 and s.phase == "turn" and s.seat(0).drawn is not None
        )
        counts[state.stage.offer] += 1
    assert counts["cuo"] and counts["swap"] and counts[None]
    never = new_hand(ruleset(p_cuo=0.0, p_swap=0.0), "never", stage=4, stage_player=0)
    never, _ = until(never, lambda s: len(s.live) < 10)
    assert never.stage.offer is None and never.stage.cuo == never.stage.swaps == 0


def test_a_stage_hand_with_every_offer_replays_to_the_recorded_state():
    rs = ruleset(p_cuo=0.3, p_swap=0.3)
    taken = Counter()
    for n in range(6):
        start = new_hand(rs, f"replay{n}", stage=4, stage_player=n % 2)
        player = n % 2
        state, moves = start, []
        while not state.ended:
            seat = state.turn
            offered = legal_actions(state, seat)
            choice = {a.verb: a for a in offered}
            if "exchange" in choice:
                action = Action("exchange", choice["exchange"].tiles[:2])
            elif "cuo" in choice:
                action = offered[-1]
            elif "swap" in choice:
                action = Action("swap", choice["swap"].tiles[-3:])
            else:
                action = default_action(state, seat)
            if seat == player:
                taken[action.verb] += 1
            state, _ = apply(state, seat, action)
            moves.append((seat, str(action)))
            assert check_all(state) == []  # tiles kept, views leak nothing, JSON round trip
        again, _ = replay(start, moves)
        assert again == state and again.to_dict() == state.to_dict()
        assert GameState.from_json(state.to_json()) == state
    assert taken["exchange"] and taken["cuo"] and taken["swap"]
