"""The two-player state machine, mechanic by mechanic (RULES.md section 3), in notation.

Hands are dealt from scripted walls: seat 0 deals unless said otherwise, ``draws`` are
the front of the live wall in order, ``back`` the replacement draws in order.
"""

import pytest

from mahjong.engine.actions import parse_action
from mahjong.engine.errors import ILLEGAL_ACTIONS, IllegalAction
from mahjong.engine.game import (
    apply,
    call_off,
    default_action,
    escape,
    is_forced,
    legal_actions,
    pending_seats,
)
from mahjong.engine.offers import chi_pairs
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.shapes import DISCARD_WIN, DRAW, ESCAPE, SELF_DRAW
from mahjong.engine.state import GameState
from mahjong.engine.tiles import format_tiles, parse_tile, parse_tiles
from mahjong.engine.views import view


def offered(state, seat):
    return [str(a) for a in legal_actions(state, seat)]


def play(state, *moves):
    """Apply moves written ``"0 discard 5m"``; returns the final state and all events."""
    events = []
    for move in moves:
        seat, text = move.split(" ", 1)
        state, more = apply(state, int(seat), parse_action(text))
        events += more
    return state, events


def hand_of(state, seat):
    return format_tiles(state.seat(seat).concealed)


def near_the_end(state, live_left):
    """Keep only ``live_left`` tiles live; the rest of the wall leaves play (``unused``),
    so a scripted hand can reach the exhaustive draw without 40 scripted discards."""
    return state.evolve(live=state.live[:live_left], unused=state.unused + state.live[live_left:])


# ----- the claim window -----------------------------------------------------------------


def test_claims_are_offered_in_priority_order_win_kong_pon_chi_then_pass():
    state = scripted_hand("classic", dealer_hand="11122m59m4445566z", other_hand="3455567m112233z")
    state, _ = play(state, "0 discard 5m")
    assert (state.phase, state.turn, pending_seats(state)) == ("claim", 1, (1,))
    assert offered(state, 1) == [
        "kan 5m",
        "pon 5m",
        "chi 5m 34m",
        "chi 5m 46m",
        "chi 5m 67m",
        "pass",
    ]
    assert offered(state, 0) == []


def test_a_discard_nobody_can_claim_goes_straight_to_the_opponents_draw():
    state = scripted_hand(
        "classic", dealer_hand="11122m59m4445566z", other_hand="3455567m112233z", draws="7z"
    )
    state, events = play(state, "0 discard 4z")
    assert (state.phase, state.turn) == ("turn", 1)
    assert state.seat(1).drawn == parse_tile("7z")
    assert [e["type"] for e in events] == ["discard", "draw"]


@pytest.mark.parametrize(
    "hand,discard,pairs",
    [
        ("3467m", "5m", ["34m", "46m", "67m"]),  # 吃头 / 吃中 / 吃尾
        ("12m", "3m", ["12m"]),
        ("12m", "9m", []),  # 9-1-2 does not wrap
        ("89m", "1m", []),
        ("12m11z", "3z", []),  # no chi of honors
        ("8m9p", "7m", []),  # one suit only
        ("4456m", "5m", ["46m"]),  # duplicates give one option
    ],
)
def test_chi_options_are_runs_of_one_number_suit_that_do_not_wrap(hand, discard, pairs):
    found = chi_pairs(parse_tiles(hand), parse_tile(discard), None)
    assert [format_tiles(p) for p in found] == pairs


def test_after_chi_the_claimer_discards_without_drawing_and_cannot_win():
    state = scripted_hand("classic", dealer_hand="11122m59m4445566z", other_hand="3455567m112233z")
    state, events = play(state, "0 discard 5m", "1 chi 5m 34m")
    player = state.seat(1)
    assert (state.phase, state.turn, player.drawn) == ("turn", 1, None)
    assert [str(m) for m in player.melds] == ["chi 345m"]
    assert player.size() == 14
    assert "hu" not in offered(state, 1)
    assert all(a.split()[0] in ("discard", "ting") for a in offered(state, 1))
    assert events[-1] == {"type": "chi", "seat": 1, "meld": "chi 345m", "tile": "5m"}


def test_a_chi_may_be_followed_by_discarding_a_tile_of_the_claimed_kind():
    state = scripted_hand("classic", dealer_hand="11122m59m4445566z", other_hand="3455567m112233z")
    state, _ = play(state, "0 discard 5m", "1 chi 5m 34m", "1 discard 5m")
    assert state.seat(1).river == (parse_tile("5m"),)


# ----- kongs ------------------------------------------------------------------------------


def test_an_exposed_kong_draws_its_replacement_from_the_back():
    state = scripted_hand(
        "classic",
        dealer_hand="11122m59m4445566z",
        other_hand="3455567m112233z",
        back="7z",
        draws="9m",
    )
    state, events = play(state, "0 discard 5m", "1 kan 5m")
    player = state.seat(1)
    assert [str(m) for m in player.melds] == ["kan 5555m"]
    assert player.drawn == parse_tile("7z") and state.draw_source == "kong"
    assert state.live[0] == parse_tile("9m")  # the front is untouched
    assert events[-1]["source"] == "back"


# dealer discards 9m, the other draws and lets 6z go, then claims the dealer's 1z as a kong
KONG_ON_SECOND_DISCARD = dict(
    dealer_hand="1z123456789m2345m", other_hand="111z2345678m556z", draws="6z7z", back="7z"
)


def test_a_turn_that_came_by_a_claim_says_so_until_the_claimer_discards():
    """The table rings the latest discard until the next; after a claimed kong the claimer
    has drawn (the replacement) like any turn, and only this tells that the discard it
    followed has left the river."""
    state = scripted_hand("classic", **KONG_ON_SECOND_DISCARD)
    state, _ = play(state, "0 discard 9m", "1 pass", "1 discard 6z")
    assert not state.claimed  # a turn by drawing
    state, _ = play(state, "0 discard 1z", "1 kan 1z")
    assert state.claimed and state.seat(1).drawn is not None
    assert view(state, 0)["claimed"] and view(state, None)["claimed"]
    assert GameState.from_json(state.to_json()) == state
    state, _ = play(state, "1 discard 7z")
    assert not state.claimed and not view(state, 0)["claimed"]
    assert "claimed" not in state.to_dict()  # stored hands keep their JSON as it was


def test_a_concealed_kong_is_offered_on_own_turn_and_replaced_from_the_back():
    state = scripted_hand(
        "classic", dealer_hand="1111m234m567m1z222z", other_hand="5689m113344556z", back="9m"
    )
    assert "ankan 1111m" in offered(state, 0)
    state, events = play(state, "0 ankan 1111m")
    assert [str(m) for m in state.seat(0).melds] == ["ankan 1111m"]
    assert state.seat(0).drawn == parse_tile("9m")
    assert events[0] == {
        "type": "ankan",
        "seat": 0,
        "private": 0,
        "secret": {"meld": "ankan 1111m"},
    }


def test_no_kong_when_the_live_wall_is_empty():
    state = scripted_hand(
        "classic", dealer_hand="1111m234m567m1z222z", other_hand="5689m113344556z"
    )
    state = near_the_end(state, 0)
    assert not any(a.startswith(("ankan", "addkan")) for a in offered(state, 0))


# ----- robbing an added kong --------------------------------------------------------------

# Dealer: 123456m 111z 222z 33z, discards 5m and waits on 5m (46m). The opponent pons the
# 5m, discards 7z, and later draws the fourth 5m.
ROB = dict(dealer_hand="123456m1112223z3z", other_hand="55m79m1m444z555z6z7z", draws="9m5m")


def test_an_added_kong_can_be_robbed_by_a_hand_it_completes():
    state = scripted_hand("classic", **ROB)
    state, _ = play(state, "0 discard 5m", "1 pon 5m", "1 discard 7z", "0 discard 9m")
    assert "addkan 5m" in offered(state, 1)
    state, _ = play(state, "1 addkan 5m")
    assert (state.phase, state.turn, offered(state, 0)) == ("rob", 0, ["hu", "pass"])
    state, events = play(state, "0 hu")
    outcome = state.outcome
    assert (outcome.kind, outcome.winner, outcome.loser, outcome.robbed_kong) == (
        DISCARD_WIN,
        0,
        1,
        True,
    )
    assert outcome.context.robbing_kong and not outcome.context.tsumo
    assert outcome.context.win == parse_tile("5m")
    assert [str(m) for m in state.seat(1).melds] == ["pon 555m"]  # the kong is cancelled
    assert events[-1]["type"] == "end"


def test_passing_on_a_robbable_kong_lets_the_kong_stand():
    state = scripted_hand("classic", back="2m", **ROB)
    state, _ = play(
        state, "0 discard 5m", "1 pon 5m", "1 discard 7z", "0 discard 9m", "1 addkan 5m", "0 pass"
    )
    assert [str(m) for m in state.seat(1).melds] == ["kan 5555m"]
    assert (state.turn, state.seat(1).drawn, state.rob_tile) == (1, parse_tile("2m"), None)


def test_without_rob_kong_the_added_kong_completes_at_once():
    from mahjong.engine.rulesets import get_ruleset

    state = scripted_hand(get_ruleset("classic", {"rob_kong": False}), **ROB)
    state, _ = play(
        state, "0 discard 5m", "1 pon 5m", "1 discard 7z", "0 discard 9m", "1 addkan 5m"
    )
    assert state.phase == "turn" and [str(m) for m in state.seat(1).melds] == ["kan 5555m"]


# ----- flowers ----------------------------------------------------------------------------


def test_dealt_flowers_are_replaced_from_the_back_dealer_first():
    state = scripted_hand(
        "classic", dealer_hand="1f123456789m1112z", other_hand="2f23456789m3334z", back="3f5z6z"
    )
    dealer, other = state.seat(0), state.seat(1)
    assert format_tiles(dealer.flowers) == "13f" and parse_tile("5z") in dealer.concealed
    assert format_tiles(other.flowers) == "2f" and parse_tile("6z") in other.concealed
    assert dealer.size() == 14 and other.size() == 13


def test_a_flower_drawn_in_play_is_exposed_and_replaced_from_the_back():
    state = scripted_hand(
        "classic",
        dealer_hand="11122m59m4445566z",
        other_hand="3455567m112233z",
        draws="4f",
        back="7z",
    )
    state, events = play(state, "0 discard 4z")
    assert format_tiles(state.seat(1).flowers) == "4f"
    assert state.seat(1).drawn == parse_tile("7z") and state.draw_source == "flower"
    assert [e["type"] for e in events] == ["discard", "flower", "draw"]


# ----- 报听 / 天听 --------------------------------------------------------------------------

# The dealer's 14 tiles: 123456m 111z 222z 33z; discarding 5m leaves 46m waiting on 5m.
READY_DEALER = "123456m1112223z3z"
QUIET = "789m789m4445556z"  # a 13-tile opponent hand with nothing to claim on 5m or 9m
QUIET_HONORS = "789m789m1122377z"  # the same beside a dealer holding 4z-6z


def test_ready_is_offered_only_with_discards_that_leave_the_hand_ready():
    state = scripted_hand("classic", dealer_hand=READY_DEALER, other_hand=QUIET)
    assert "ting 5m" in offered(state, 0)
    far = scripted_hand("classic", dealer_hand="11122m59m4445566z", other_hand=QUIET_HONORS)
    assert not [a for a in offered(far, 0) if a.startswith("ting")]


def test_ready_locks_the_hand_then_the_server_discards_what_does_not_win():
    state = scripted_hand("classic", dealer_hand=READY_DEALER, other_hand=QUIET, draws="7z9m")
    state, events = play(state, "0 ting 5m")
    assert state.seat(0).ting == "tian_ting"
    assert events[0] == {"type": "ting", "seat": 0, "tile": "5m", "ting": "tian_ting"}
    state, _ = play(state, "1 discard 7z")
    assert offered(state, 0) == ["discard 9m"]
    assert is_forced(state, 0) and str(default_action(state, 0)) == "discard 9m"


def test_a_locked_player_is_asked_only_about_the_win():
    # The dealer, ready on 5m, could also chi it with 46m: only hu / pass is offered.
    state = scripted_hand(
        "classic", dealer_hand=READY_DEALER, other_hand="5m89m789m4445556z", draws="6z"
    )
    state, _ = play(state, "0 ting 5m", "1 discard 5m")
    assert offered(state, 0) == ["hu", "pass"]
    declined, _ = play(state, "0 pass")
    assert declined.seat(0).ting == "tian_ting"  # declining keeps the ready state


def test_a_locked_player_passing_a_self_drawn_win_discards_the_drawn_tile():
    state = scripted_hand("classic", dealer_hand=READY_DEALER, other_hand=QUIET, draws="7z5m")
    state, _ = play(state, "0 ting 5m", "1 discard 7z")
    assert offered(state, 0) == ["hu", "pass"]
    assert not is_forced(state, 0)
    state, events = play(state, "0 pass")
    assert state.seat(0).river[-1] == parse_tile("5m") and state.seat(0).ting == "tian_ting"
    assert [e["type"] for e in events][:2] == ["pass", "discard"]


def test_a_locked_player_makes_no_claims_and_no_kongs():
    state = scripted_hand("classic", dealer_hand=READY_DEALER, other_hand=QUIET, draws="7z1z")
    state, _ = play(state, "0 ting 5m", "1 discard 7z")
    assert offered(state, 0) == ["discard 1z"]  # four 1z, but no concealed kong while locked


def test_non_dealer_ready_on_first_turn_with_the_dealt_hand_is_tian_ting():
    state = scripted_hand(
        "classic", dealer_hand="789m789m4445556z6z", other_hand="123456m1112223z", draws="3z"
    )
    state, _ = play(state, "0 discard 6z")
    assert "ting 3z" in offered(state, 1)
    tian, _ = play(state, "1 ting 3z")
    assert tian.seat(1).ting == "tian_ting"
    changed, _ = play(state, "1 ting 1m")  # the dealt hand was changed: ordinary ready
    assert changed.seat(1).ting == "ready"


def test_ready_after_a_meld_is_ordinary_ready():
    state = scripted_hand("classic", dealer_hand="1111m23456m1112z2z", other_hand=QUIET, back="3z")
    state, _ = play(state, "0 ankan 1111m")
    ting = next(a for a in offered(state, 0) if a.startswith("ting"))
    state, _ = play(state, "0 " + ting)
    assert state.seat(0).ting == "ready"


# ----- quesheng 过胡 --------------------------------------------------------------------


def test_guo_counts_passes_on_a_win_and_after_three_only_hu_is_offered():
    state = scripted_hand("quesheng", dealer_hand=READY_DEALER, other_hand=QUIET, draws="7z5m")
    state, _ = play(state, "0 ting 5m", "1 discard 7z")
    assert offered(state, 0) == ["hu", "guo"]
    passed, events = play(state, "0 guo")
    assert passed.seat(0).guo == 1 and events[0]["type"] == "guo"
    exhausted = state.replace_seat(0, guo=3)
    assert offered(exhausted, 0) == ["hu"]
    assert str(default_action(exhausted, 0)) == "hu"


def test_an_unready_quesheng_player_passes_an_offered_win_with_pass():
    state = scripted_hand(
        "quesheng", dealer_hand="123456m1112223z3z", other_hand="46m123m789m555z33z"
    )
    state, _ = play(state, "0 discard 5m")
    assert offered(state, 1)[0] == "hu" and offered(state, 1)[-1] == "pass"


# ----- wins -------------------------------------------------------------------------------


def test_a_self_drawn_win_records_its_context():
    state = scripted_hand("classic", dealer_hand=READY_DEALER, other_hand=QUIET, draws="7z5m")
    state, _ = play(state, "0 ting 5m", "1 discard 7z", "0 hu")
    outcome = state.outcome
    assert (outcome.kind, outcome.winner, outcome.loser) == (SELF_DRAW, 0, 1)
    ctx = outcome.context
    assert ctx.tsumo and ctx.dealer and ctx.ting == "tian_ting" and ctx.win == parse_tile("5m")
    assert format_tiles(ctx.hand) == "12346m11122233z"
    assert not ctx.first_turn  # the dealer has discarded already


def test_a_discard_win_on_the_dealers_first_discard_is_a_first_turn_win():
    state = scripted_hand(
        "classic", dealer_hand="789m789m4445556z5m", other_hand="123m46m111z222z33z"
    )
    state, _ = play(state, "0 discard 5m", "1 hu")
    ctx = state.outcome.context
    assert state.outcome.kind == DISCARD_WIN and ctx.first_turn and not ctx.tsumo and not ctx.dealer


def test_the_dealer_may_win_with_the_dealt_hand():
    state = scripted_hand("classic", dealer_hand="123456789m11122z", other_hand=QUIET)
    assert offered(state, 0)[0] == "hu"
    state, _ = play(state, "0 hu")
    assert state.outcome.kind == SELF_DRAW and state.outcome.context.first_turn


# ----- exhaustive draw, 海底捞月 ----------------------------------------------------------


def test_an_empty_live_wall_ends_a_hand_without_haidi_phase_in_a_draw():
    state = scripted_hand("quesheng", dealer_hand="11122m59m4445566z", other_hand=QUIET_HONORS)
    state = near_the_end(state, 0)
    state, events = play(state, "0 discard 1m")
    assert state.outcome.kind == DRAW and state.phase == "ended"
    assert [e["type"] for e in events][-2:] == ["wall_empty", "end"]


def test_haidi_phase_gives_the_only_ready_player_the_reserve_draws():
    # The opponent is ready on 5m/8m (67m), the dealer is not; reserve 9m 8m 1z.
    state = scripted_hand(
        "classic",
        dealer_hand="11122m59m4445566z",
        other_hand="67m123m111z222z33z",
        reserve="9m8m3z",
    )
    state = near_the_end(state, 0)
    state, events = play(state, "0 discard 9m")
    assert (state.phase, state.haidi_seat, offered(state, 1)) == ("haidi", 1, ["hu", "pass"])
    assert pending_seats(state) == (1,) and str(default_action(state, 1)) == "hu"
    assert [e["tile"] for e in events if e["type"] == "haidi_draw"] == ["9m", "8m"]
    assert format_tiles(state.haidi_shown) == "9m"
    won, _ = play(state, "1 hu")
    assert won.outcome.context.haidi_phase and won.outcome.kind == SELF_DRAW
    passed, _ = play(state, "1 pass")
    assert passed.outcome.kind == DRAW and format_tiles(passed.haidi_shown) == "98m3z"


def test_haidi_phase_with_nobody_ready_is_a_plain_draw():
    state = scripted_hand(
        "classic", dealer_hand="11122m59m4445566z", other_hand="147799m1234567z", reserve="9m8m3z"
    )
    state, _ = play(near_the_end(state, 0), "0 discard 5m")
    assert state.outcome.kind == DRAW and state.haidi_seat is None


@pytest.mark.parametrize(
    "dealer,other,first",
    [
        ((5, None), (3, None), 1),  # the earlier declaration
        ((5, None), (None, 2), 0),  # a declaration beats none
        ((None, 1), (7, None), 1),
        ((None, 10), (None, 4), 1),  # undeclared: ready since the earlier move
        ((None, 4), (None, 4), 0),  # remaining tie: the dealer
        ((None, None), (None, None), 0),
    ],
)
def test_haidi_phase_order_between_two_ready_players(dealer, other, first):
    from mahjong.engine.flow import haidi_player

    state = scripted_hand(
        "classic", dealer_hand="11122m59m4445566z", other_hand="67m123m111z222z33z"
    )
    state = state.replace_seat(
        0,
        concealed=tuple(parse_tiles("12346m11122233z")),
        ting_at=dealer[0],
        tenpai_since=dealer[1],
    )
    state = state.replace_seat(1, ting_at=other[0], tenpai_since=other[1])
    assert haidi_player(state) == first


# ----- escape, illegal input ---------------------------------------------------------------


def test_escape_ends_the_hand_with_the_escaper_as_loser():
    state = scripted_hand("classic", dealer_hand="11122m59m4445566z", other_hand=QUIET_HONORS)
    ended, events = escape(state, 1)
    assert (ended.outcome.kind, ended.outcome.escaper, ended.outcome.winner) == (ESCAPE, 1, 0)
    assert ended.phase == "ended" and pending_seats(ended) == ()
    assert events[-1]["seed"] == state.seed.hex()
    with pytest.raises(IllegalAction):
        escape(ended, 0)


def test_call_off_ends_the_hand_drawn_with_nobody_to_blame():
    """The operator closing a stuck table (tables.services.close_by_operator)."""
    state = scripted_hand("classic", dealer_hand="11122m59m4445566z", other_hand=QUIET_HONORS)
    ended, events = call_off(state)
    outcome = ended.outcome
    assert outcome.kind == DRAW
    assert (outcome.winner, outcome.loser, outcome.escaper) == (None, None, None)
    assert ended.phase == "ended" and pending_seats(ended) == () and ended.moves == state.moves + 1
    assert [e["type"] for e in events] == ["called_off", "end"]
    assert events[-1]["seed"] == state.seed.hex()
    with pytest.raises(IllegalAction):
        call_off(ended)


@pytest.mark.parametrize(
    "seat,text,words,code",
    [
        (1, "discard 5m", "not your turn", "not_your_turn"),
        (0, "discard 3p", "3p is not in your hand", "not_held"),
        (0, "pass", "not allowed now", "not_offered"),
        (0, "chi 5m 46m", "not allowed now", "not_offered"),
        (0, "exchange 19m", "not allowed now", "not_offered"),  # stage offers: parse-only here
        (0, "hu", "not allowed now", "not_offered"),
        (2, "discard 5m", "no seat 2", "no_seat"),
    ],
)
def test_illegal_actions_raise_naming_the_action_and_change_nothing(seat, text, words, code):
    state = scripted_hand("classic", dealer_hand="11122m59m4445566z", other_hand=QUIET_HONORS)
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        apply(state, seat, parse_action(text))
    assert text.split()[0] in str(err.value) and words in str(err.value)
    # what a front end needs to say it in its own language
    assert err.value.code == code and code in ILLEGAL_ACTIONS
    assert state.to_json() == before


def test_an_out_of_turn_refusal_names_no_phase():
    """Refused during the other seat's claim window, the text said "(claim)": that the
    opponent could take this seat's discard."""
    state = scripted_hand("classic", dealer_hand="11122m59m4445566z", other_hand="3455567m112233z")
    window, _ = play(state, "0 discard 5m")
    with pytest.raises(IllegalAction) as err:
        apply(window, 0, parse_action("discard 1m"))
    assert window.phase == "claim" and err.value.code == "not_your_turn"
    assert window.phase not in str(err.value) and "seat" not in str(err.value)


def test_a_stale_action_after_the_window_closed_is_refused():
    state = scripted_hand("classic", dealer_hand="11122m59m4445566z", other_hand="3455567m112233z")
    window, _ = play(state, "0 discard 5m")
    later, _ = play(window, "1 pass")
    with pytest.raises(IllegalAction):
        apply(later, 1, parse_action("pon 5m"))


# ----- default actions (3.12) --------------------------------------------------------------


def test_default_actions_follow_the_timeout_rules():
    state = scripted_hand(
        "classic", dealer_hand="11122m59m4445566z", other_hand="3455567m112233z", draws="7z"
    )
    assert str(default_action(state, 0)) == "discard 6z"  # dealer's first turn: rightmost
    assert default_action(state, 1) is None  # not their decision
    window, _ = play(state, "0 discard 5m")
    assert str(default_action(window, 1)) == "pass"
    drawn, _ = play(window, "1 pass")
    assert str(default_action(drawn, 1)) == "discard 7z"  # the drawn tile
    chi, _ = play(window, "1 chi 5m 34m")
    assert str(default_action(chi, 1)) == "discard 3z"  # after a claim: rightmost


@pytest.mark.parametrize("auto_win,expected", [(True, "hu"), (False, "pass")])
def test_default_on_a_win_offer_follows_auto_win_on_timeout(auto_win, expected):
    from mahjong.engine.rulesets import get_ruleset

    rs = get_ruleset("classic", {"auto_win_on_timeout": auto_win})
    state = scripted_hand(rs, dealer_hand="123456m1112223z3z", other_hand="46m123m789m555z33z")
    state, _ = play(state, "0 discard 5m")
    assert str(default_action(state, 1)) == expected


def test_default_on_an_unlocked_self_drawn_win_without_auto_win_discards_the_drawn_tile():
    from mahjong.engine.rulesets import get_ruleset

    rs = get_ruleset("classic", {"auto_win_on_timeout": False})
    state = scripted_hand(
        rs, dealer_hand="789m789m4446667z7z", other_hand="46m123m789m555z33z", draws="5m"
    )
    state, _ = play(state, "0 discard 7z")
    assert offered(state, 1)[0] == "hu"
    assert str(default_action(state, 1)) == "discard 5m"


# ----- JSON ------------------------------------------------------------------------------


def test_states_round_trip_through_json_exactly_including_the_outcome():
    state = scripted_hand("classic", dealer_hand=READY_DEALER, other_hand=QUIET, draws="7z5m")
    for move in ("0 ting 5m", "1 discard 7z", "0 hu"):
        assert GameState.from_json(state.to_json()) == state
        state, _ = play(state, move)
    again = GameState.from_json(state.to_json())
    assert again == state and again.outcome.context == state.outcome.context


def test_a_derived_ruleset_survives_the_round_trip():
    from mahjong.engine.rulesets import get_ruleset

    rs = get_ruleset("classic", {"cap": 8, "timers": {"decision": 20}})
    state = scripted_hand(rs, dealer_hand=READY_DEALER, other_hand=QUIET)
    again = GameState.from_json(state.to_json())
    assert again.ruleset.cap == 8 and again.ruleset.timers.decision == 20 and again == state


# ----- tiao72 上杠 while ready, gb minimum fan ------------------------------------------


def test_a_ready_tiao72_hand_may_still_add_a_kong_and_a_claim_spoils_tian_ting():
    state = scripted_hand(
        "tiao72", dealer_hand="245689s44556677z", other_hand="55s123s789s1122z3z", draws="9s5s"
    )
    state, _ = play(state, "0 discard 5s", "1 pon 5s", "1 ting 3z")
    assert state.seat(1).ting == "ready"  # a pon before the declaration: no 天听
    state, _ = play(state, "0 discard 9s")
    assert offered(state, 1) == ["discard 5s", "addkan 5s"]
    assert not is_forced(state, 1)


@pytest.mark.parametrize(
    "other,wins",
    [
        ("123m456m789m67s55z", True),  # 清龙 16: enough
        ("234m345p567s67s55z", False),  # 门前清 only: below 8, not offered
    ],
)
def test_gb_offers_a_win_only_when_it_reaches_eight_fan(other, wins):
    state = scripted_hand("gb", dealer_hand="8s1199p11223344z6z", other_hand=other)
    state, _ = play(state, "0 discard 8s")
    assert ("hu" in offered(state, 1)) == wins


def test_the_deal_events_show_each_hand_only_to_its_seat():
    from mahjong.engine.game import opening_events
    from mahjong.engine.views import event_for

    state = scripted_hand("classic", dealer_hand=READY_DEALER, other_hand=QUIET)
    deal, mine, theirs = opening_events(state)
    assert deal["commitment"] == state.commitment and deal["dealer"] == 0
    assert event_for(mine, 0)["tiles"] == format_tiles(state.seat(0).concealed)
    assert "tiles" not in event_for(mine, 1) and event_for(theirs, None)["count"] == 13


def test_the_decision_timer_is_short_only_for_a_ready_hand_with_nothing_to_decide():
    from mahjong.engine.game import decision_seconds

    state = scripted_hand("classic", dealer_hand=READY_DEALER, other_hand=QUIET, draws="7z9m")
    assert decision_seconds(state, 0) == 15 and decision_seconds(state, 1) is None
    state, _ = play(state, "0 ting 5m", "1 discard 7z")
    assert decision_seconds(state, 0) == 1.0


def test_a_recorded_hand_replays_from_its_moves():
    from mahjong.engine.game import replay

    start = scripted_hand("classic", dealer_hand=READY_DEALER, other_hand=QUIET, draws="7z5m")
    played, events = play(start, "0 ting 5m", "1 discard 7z", "0 hu")
    again, same_events = replay(start, [(0, "ting 5m"), (1, "discard 7z"), (0, parse_action("hu"))])
    assert again == played and same_events == events
    with pytest.raises(IllegalAction):
        replay(start, [(1, "discard 7z")])


# ----- the win's situation, as scoring reads it ---------------------------------------------

WAITING_5M = "46m123m789m555z33z"  # the opponent waits on 5m
PLAIN_DEALER = "11122m9m3444z6677z"  # discarding 4z gives the opponent nothing to claim


def test_a_win_on_a_kong_replacement_is_marked_so():
    state = scripted_hand("classic", dealer_hand="1111m234m567m11z22z", other_hand=QUIET, back="2z")
    state, _ = play(state, "0 ankan 1111m", "0 hu")
    ctx = state.outcome.context
    assert ctx.kong_replacement and not ctx.flower_replacement and ctx.tsumo


def test_a_win_on_a_flower_replacement_is_marked_so():
    state = scripted_hand(
        "classic", dealer_hand=PLAIN_DEALER, other_hand=WAITING_5M, draws="1f", back="5m"
    )
    state, _ = play(state, "0 discard 4z", "1 hu")
    ctx = state.outcome.context
    assert ctx.flower_replacement and not ctx.kong_replacement
    assert format_tiles(ctx.flowers) == "1f" and ctx.first_turn


def test_a_win_on_the_last_live_tile_is_marked_so():
    state = scripted_hand("quesheng", dealer_hand=PLAIN_DEALER, other_hand=WAITING_5M, draws="5m")
    state, _ = play(near_the_end(state, 1), "0 discard 4z", "1 hu")
    assert state.outcome.context.last_tile and not state.live


def test_winning_on_the_last_copy_of_a_kind_counts_the_visible_ones():
    # The dealer throws three 5m (the opponent passes each); the fourth is self-drawn.
    state = scripted_hand(
        "classic", dealer_hand="555m111m22m3z444z6z7z", other_hand=WAITING_5M, draws="2z1z2z1z5m"
    )
    state, _ = play(
        state,
        "0 discard 5m",
        "1 pass",
        "1 discard 2z",
        "0 discard 5m",
        "1 pass",
        "1 discard 2z",
        "0 discard 5m",
        "1 pass",
        "1 hu",
    )
    ctx = state.outcome.context
    assert ctx.last_of_kind and ctx.tsumo and not ctx.first_turn
