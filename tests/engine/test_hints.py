"""The waits hint (engine.hints): the waits a seat's hand can win on, counted from what
the seat sees, and only those that can reach the ruleset's minimum fan (gb's 8)."""

from mahjong.engine.hints import waits_hint
from mahjong.engine.melds import parse_meld
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.tiles import parse_tiles

DEALER = "123m456p789s1112z3z"
OTHER = "55m888m456s33z999p"


def with_hand(state, seat, concealed, meld):
    return state.replace_seat(
        seat, concealed=tuple(parse_tiles(concealed)), melds=(parse_meld(meld),), drawn=None
    )


def test_a_gb_hand_whose_waits_all_score_under_eight_is_not_ready():
    """55m 888m 456s 西西 with a pon of 777m waits on 5m and 西 by shape; either win
    scores 4-5 fan, under gb's minimum of 8 (play-testing found it called ready)."""
    state = with_hand(
        scripted_hand("gb", dealer_hand=DEALER, other_hand=OTHER), 1, "55m888m456s33z", "pon 777m"
    )
    assert waits_hint(state, 1) is None


def test_a_gb_hint_keeps_only_the_waits_that_reach_eight():
    # a pon of 中 (箭刻) and the seat's own wind (West, 门风刻) on 3z reach 8; 5m does not
    state = with_hand(
        scripted_hand("gb", dealer_hand=DEALER, other_hand=OTHER), 1, "55m888m456s33z", "pon 777z"
    )
    assert waits_hint(state, 1) == {"ready": {"waits": [{"tile": "3z", "left": 2}], "left": 2}}


def test_a_discard_that_leaves_only_waits_under_the_minimum_is_not_offered():
    state = scripted_hand("gb", dealer_hand=DEALER, other_hand=OTHER)
    state = state.replace_seat(
        1,
        concealed=tuple(parse_tiles("55m888m456s33z9p")),
        melds=(parse_meld("pon 777m"),),
        drawn=None,
    )
    assert waits_hint(state, 1) is None


def test_without_a_minimum_every_wait_is_shown():
    state = with_hand(
        scripted_hand("classic", dealer_hand="123456789m11z22z3z", other_hand="444555666777z1m"),
        1,
        "55m888m456s33z",
        "pon 777m",
    )
    assert [w["tile"] for w in waits_hint(state, 1)["ready"]["waits"]] == ["5m", "3z"]
