"""wenzhou 财神 in play (RULES.md 9.2): never discarded, never in a claim, 白板 plays as
the wild's face, no claim leaves only wilds, 三财神 wins on the holder's own turn."""

from mahjong.engine.actions import parse_action
from mahjong.engine.game import apply, default_action, legal_actions
from mahjong.engine.offers import claim_offers
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.tiles import parse_tile, parse_tiles

# back="3m": the indicator is 3m, so the other three 3m are wild and each 5z plays as 3m.
DEALER = "1233m456789m1112223z"  # 17 tiles, two wilds (3m)
OTHER = "24m555z678999p11123s"  # 16 tiles: 2m 4m and three 白板 (as 3m)


def offered(state, seat):
    return [str(a) for a in legal_actions(state, seat)]


def deal(dealer=DEALER, other=OTHER, **kw):
    return scripted_hand("wenzhou", dealer_hand=dealer, other_hand=other, back="3m", **kw)


def test_the_indicator_sets_the_wild_and_wilds_are_never_offered_as_discards():
    state = deal()
    assert state.indicator == parse_tile("3m") and state.wild == parse_tile("3m")
    assert "discard 3m" not in offered(state, 0)
    assert not any(a.startswith(("ting", "ankan 3333m")) for a in offered(state, 0))


def test_a_white_dragon_plays_as_the_wilds_face_in_chi_and_pon():
    state = deal()
    state, _ = apply(state, 0, parse_action("discard 4m"))
    claims = offered(state, 1)
    assert "chi 4m 2m5z" in claims  # 2m + 白板 (as 3m) + 4m
    state2 = deal(dealer="1234567899m1112225z")
    state2, _ = apply(state2, 0, parse_action("discard 5z"))
    claims2 = offered(state2, 1)
    assert "pon 5z" in claims2 and "kan 5z" in claims2 and "chi 5z 24m" in claims2


def test_wilds_never_complete_a_claim():
    # The opponent holds two wilds (3m) but no 白板: a 5z discard (as 3m) cannot be ponned.
    state = deal(dealer="122456789m11122256z", other="334m66789p1112345s7z")
    state, _ = apply(state, 0, parse_action("discard 5z"))
    assert not any(a.startswith(("pon", "kan")) for a in offered(state, 1))


def test_no_claim_leaves_a_hand_of_only_wilds():
    state = deal()
    state, _ = apply(state, 0, parse_action("discard 4m"))
    only_wilds_after = state.replace_seat(
        1, concealed=tuple(parse_tiles("2m4m")) + (parse_tile("3m"),) * 2
    )
    state3 = only_wilds_after.replace_seat(0, river=(parse_tile("5z"),))
    assert claim_offers(state3, 1) == []
    with_spare = state3.replace_seat(
        1, concealed=tuple(sorted(parse_tiles("2m4m9p") + [parse_tile("3m")] * 2))
    )
    assert "chi 5z 24m" in [str(a) for a in claim_offers(with_spare, 1)]


def test_the_timeout_discard_is_never_a_wild():
    # indicator 7z: the dealer's 7z are wild and sort last.
    state = scripted_hand("wenzhou", dealer_hand="123456789m11123477z", other_hand=OTHER, back="7z")
    assert state.wild == parse_tile("7z")
    assert str(default_action(state, 0)) == "discard 4z"


def test_three_wilds_win_on_the_holders_own_turn():
    state = deal(dealer="1333m456789m1112223z")  # all three wilds in the dealt hand
    assert offered(state, 0)[0] == "hu"
    state, _ = apply(state, 0, parse_action("hu"))
    assert state.outcome.winner == 0 and state.outcome.context.wild == parse_tile("3m")
