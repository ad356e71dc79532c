"""The hand review (issue 35): its numbers are the engine's own, it uses nothing the seat
could not see, it reviews a hand of every ruleset, and it is deterministic."""

import json
import random
from collections import Counter

import pytest
from test_views import _hide_differently  # the views' leak test's method, for reviews

from mahjong.engine import hand
from mahjong.engine.actions import parse_action
from mahjong.engine.bots import choose_for, get_bot
from mahjong.engine.errors import SeedMismatch
from mahjong.engine.flow import own_tiles_for
from mahjong.engine.game import apply, legal_actions, new_hand, revealed_start
from mahjong.engine.hints import unseen
from mahjong.engine.melds import Meld
from mahjong.engine.review import HandReview, review_decision, review_hand, review_seats
from mahjong.engine.review_measure import Measurer, Position
from mahjong.engine.rulesets import SLUGS, get_ruleset
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.stage import stage_ruleset
from mahjong.engine.state import ENDED
from mahjong.engine.tiles import parse_tiles

# ----- a scripted hand: the review's numbers are the engine's -----------------------------

DEALER = "1235789m1122356z"
OTHER = "24568m11334477z"  # holds both other 1z: unseen by the dealer, not in the wall
DRAWS = "7z4m9m6z3m4z9m"
MOVES = [
    (0, "discard 6z"),
    (1, "discard 7z"),
    (0, "discard 5z"),
    (1, "discard 6m"),
    (0, "chi 6m 45m"),
    (0, "discard 3z"),
    (1, "pass"),
    (1, "discard 9m"),
    (0, "pass"),
    (0, "discard 9m"),
]


def scripted():
    return scripted_hand("classic", dealer_hand=DEALER, other_hand=OTHER, draws=DRAWS)


def engine_position(state, seat, action):
    """The 3n+1 tiles and melds ``action`` leaves, built from the state directly."""
    player = state.seat(seat)
    if action.verb in ("discard", "ting"):
        rest = list(player.hand)
        rest.remove(action.tile)
        return [(tuple(rest), player.melds)]
    if action.verb == "pass":
        return [(player.concealed, player.melds)]
    assert action.verb == "chi"
    own = own_tiles_for(state, seat, "chi", action.tiles)
    rest = list(player.concealed)
    for t in own:
        rest.remove(t)
    melds = player.melds + (Meld("chi", tuple(sorted((action.tiles[0], *own)))),)
    out = []
    for discard in sorted(set(rest)):
        left = list(rest)
        left.remove(discard)
        out.append((tuple(left), melds))
    return out


def engine_numbers(state, seat, tiles, melds):
    """(shanten, acceptance) by ``hand.shanten`` over every kind, the unseen copies counted
    by the waits hint's ``hints.unseen``."""
    rs = state.ruleset
    left = unseen(state, seat)
    s = hand.shanten(tiles, melds, rs)
    held = Counter(tiles) + Counter(t for m in melds for t in m.tiles)
    better = [k for k in rs.kinds if held[k] < 4 and hand.shanten(tiles + (k,), melds, rs) < s]
    return s, sum(left[k] for k in better)


def test_a_scripted_hands_review_has_the_engines_shanten_and_acceptance():
    start = scripted()
    review = review_hand(start, MOVES, 0)
    assert [d.step for d in review.decisions] == [0, 2, 4, 5, 8, 9]
    state, checked = start, 0
    decisions = iter(review.decisions)
    for seat, text in MOVES:
        if seat == 0:
            decision = next(decisions)
            offered = legal_actions(state, 0)
            assert [o.action for o in decision.options] == [str(a) for a in offered]
            for option, action in zip(decision.options, offered):
                numbers = [
                    engine_numbers(state, 0, t, m) for t, m in engine_position(state, 0, action)
                ]
                # a chi is worth its best discard: the lowest shanten, then the most tiles
                shanten, acceptance = min(numbers, key=lambda n: (n[0], -n[1]))
                assert (option.shanten, option.acceptance) == (shanten, acceptance), option
                checked += 1
        state, _ = apply(state, seat, parse_action(text))
    assert checked > 40


def test_the_scripted_hands_claim_reads_as_a_player_would():
    review = review_hand(scripted(), MOVES, 0)
    chi = review.decisions[2]
    assert chi.kind == "claim" and chi.chosen == "chi 6m 45m"
    by_action = {o.action: o for o in chi.options}
    # 123m 789m 11z 22z after the chi and 3z out: ready on 1z and 2z, two copies each
    # unseen. Both other 1z are in the opponent's hand: a count of the wall would say 2.
    assert (by_action["chi 6m 45m"].shanten, by_action["chi 6m 45m"].acceptance) == (0, 4)
    assert by_action["chi 6m 45m"].tiles == "12z"
    assert by_action["pass"].shanten == 1
    assert chi.best == ("chi 6m 45m",) and not chi.lost
    first = review.decisions[0]
    assert first.chosen == "discard 6z" and first.best == ("discard 3z", "discard 5z", "discard 6z")


def test_a_worse_choice_is_marked_with_what_it_gave_up():
    moves = [(0, "discard 9m")]
    review = review_hand(scripted(), moves, 0)
    (decision,) = review.decisions
    by_action = {o.action: o for o in decision.options}
    assert decision.lost and decision.shanten_lost == 1
    assert by_action["discard 9m"].shanten == by_action["discard 6z"].shanten + 1
    assert review.mistakes == 1 and review.biggest_mistake == 0
    assert review.shanten_given_up == 1


def test_a_pass_that_leaves_a_higher_shanten_than_the_claim_is_marked():
    moves = MOVES[:4] + [(0, "pass")]
    review = review_hand(scripted(), moves, 0)
    claim = review.decisions[-1]
    assert claim.kind == "claim" and claim.chosen == "pass" and claim.lost
    assert claim.shanten_lost == 1 and review.biggest_mistake == 4


def test_a_kong_is_judged_by_shanten_alone():
    # 1111m 234m 567m 222z 1z: the kong keeps the hand ready on 1z (3 tiles unseen);
    # discarding 1z keeps it ready on more (6), but the kong adds a draw and its fans.
    start = scripted_hand(
        "classic", dealer_hand="1111m234m567m1z222z", other_hand="5689m113344556z", back="9m"
    )
    (kong,) = review_hand(start, [(0, "ankan 1111m")], 0).decisions
    by_action = {o.action: o for o in kong.options}
    assert kong.kind == "kong" and not kong.lost
    assert (by_action["ankan 1111m"].shanten, by_action["ankan 1111m"].acceptance) == (0, 3)
    assert by_action["discard 1z"].acceptance > by_action["ankan 1111m"].acceptance
    assert kong.best == ("ankan 1111m", "ting 1z", "discard 1z")
    (other,) = review_hand(start, [(0, "discard 1m")], 0).decisions
    assert other.lost and other.shanten_lost == 0 and other.tiles_lost == 3


# ----- the shortcuts the measure takes are the engine's answers ---------------------------


def _random_position(rs, rng):
    box = [t for t in rs.tile_set if t < 34]
    rng.shuffle(box)
    wild = rng.choice(rs.kinds) if rs.wilds else None
    melds = []
    for _ in range(rng.choice((0, 0, 0, 1, 2))):
        kind = rng.choice(rs.kinds)
        if box.count(kind) >= 3:
            for _ in range(3):
                box.remove(kind)
            melds.append(Meld("pon", (kind,) * 3))
    size = rs.hand_size + 1 - 3 * len(melds) - 1
    return tuple(sorted(box[:size])), tuple(melds), wild


def _near_position(rs, rng):
    """A complete hand (some pungs declared) less one to three tiles, plus random tiles:
    ready and one-away hands, four of a kind, a 财神 held (wenzhou)."""
    wild = rng.choice(rs.kinds) if rs.wilds else None
    while True:
        tiles, melds = [], []
        for _ in range(rs.sets_in_hand):
            k = rng.choice(rs.kinds)
            chow = k < 27 and k % 9 <= 6 and k + 2 in rs.kinds and rng.random() < 0.6
            if chow:
                tiles += [k, k + 1, k + 2]
            elif rng.random() < 0.2:
                melds.append(Meld("pon", (k,) * 3))
            else:
                tiles += [k] * 3
        tiles += [rng.choice(rs.kinds)] * 2
        rng.shuffle(tiles)
        cut = rng.choice((1, 1, 2, 3))
        tiles = tiles[cut:] + [rng.choice(rs.kinds) for _ in range(cut - 1)]
        if wild is not None and rng.random() < 0.5:
            tiles[0] = wild
        held = Counter(tiles) + Counter(t for m in melds for t in m.tiles)
        if max(held.values()) <= 4 and held[wild] <= 3:
            return tuple(sorted(tiles)), tuple(melds), wild


@pytest.mark.parametrize("slug", SLUGS)
def test_the_measures_shape_is_hand_shanten_and_its_improving_draws(slug):
    rs = stage_ruleset(get_ruleset(slug), 1) if slug == "stage" else get_ruleset(slug)
    rng = random.Random(slug)
    for n in range(160):
        tiles, melds, wild = (_near_position if n % 2 else _random_position)(rs, rng)
        measurer = Measurer(rs, wild)
        shanten, kinds = measurer.shape(Position(tiles, melds))
        expected = hand.shanten(tiles, melds, rs, wild)
        held = Counter(tiles) + Counter(t for m in melds for t in m.tiles)
        better = tuple(
            k
            for k in rs.kinds
            if held[k] < 4 and hand.shanten(tiles + (k,), melds, rs, wild) < expected
        )
        assert (shanten, kinds) == (expected, better), (tiles, melds, wild)


def test_ready_positions_accept_their_waits():
    rs = get_ruleset("gb")
    for text in ("123456789m1234p", "1122335566778p", "19m19p19s1234567z"):
        tiles = tuple(sorted(parse_tiles(text)))
        assert Measurer(rs, None).shape(Position(tiles, ())) == (
            0,
            tuple(hand.waits(list(tiles), (), rs)),
        )


# ----- no leak: the review sees what the seat saw, nothing else ----------------------------


def _bot_hand(slug, seed, level="strong", claim_pause=False):
    start = (
        new_hand(slug, seed, stage=1, claim_pause=claim_pause)
        if slug == "stage"
        else new_hand(slug, seed, claim_pause=claim_pause)
    )
    bots = [get_bot(level, seed), get_bot("efficient", seed)]
    state, moves = start, []
    while state.phase != ENDED and len(moves) < 2000:
        seat = state.turn
        action = choose_for(bots[seat], state, seat)
        moves.append((seat, str(action)))
        state, _ = apply(state, seat, action)
    return start, moves


@pytest.mark.parametrize("slug", ["classic", "wenzhou", "gb", "quesheng"])
def test_a_decisions_review_is_the_same_whatever_the_seat_could_not_see(slug):
    compared = 0
    for n in range(3):
        start, moves = _bot_hand(slug, f"leak:{n}")
        state = start
        for step, (seat, text) in enumerate(moves):
            action = parse_action(text)
            other = _hide_differently(state, 1 - seat)
            if other is not None:
                assert review_decision(other, seat, action, step) == review_decision(
                    state, seat, action, step
                )
                compared += 1
            state, _ = apply(state, seat, action)
    assert compared > 20


# Two deals of a whole hand that agree on everything the dealer sees and differ in the
# opponent's concealed tiles and so in the wall: 77z in its hand (A) or in the wall (B).
SAME_FOR_THE_DEALER = dict(dealer_hand="12356789m112244z", draws="3z4m7m9m6z3m")
HIDDEN = {"A": "159m1133z5566z77z", "B": "159m1133z5566z24z"}
BOTH_DEALS_MOVES = [
    (0, "discard 4z"),
    (1, "discard 3z"),
    (0, "discard 4z"),
    (1, "discard 7m"),
    (0, "pass"),
    (0, "discard 2z"),
    (1, "discard 6z"),
    (0, "discard 2z"),
]


def test_a_hands_review_is_the_same_when_only_what_the_seat_never_saw_differs():
    reviews, walls = [], []
    for other in HIDDEN.values():
        start = scripted_hand("classic", other_hand=other, **SAME_FOR_THE_DEALER)
        reviews.append(review_hand(start, BOTH_DEALS_MOVES, 0).to_dict())
        walls.append(start.live)
    assert walls[0] != walls[1]
    assert reviews[0] == reviews[1]
    assert len(reviews[0]["decisions"]) == 5
    # Counted from the seat's view: every copy the dealer does not see is unseen,
    # wherever it is. 7z is a pair in A's opponent hand and two tiles of B's wall.
    first = reviews[0]["decisions"][0]
    assert all(o["acceptance"] <= 4 * 16 for o in first["options"])


def test_the_unseen_count_is_every_copy_the_seat_does_not_see():
    start = scripted()
    state = start
    for seat, text in MOVES[:4]:
        state, _ = apply(state, seat, parse_action(text))
    decision = review_decision(state, 0, parse_action("chi 6m 45m"), 4)
    by_action = {o.action: o for o in decision.options}
    # 1z: the dealer holds 2, the opponent 2 (unseen); 2z: the dealer 2, the wall 2.
    in_wall = Counter(state.live)
    assert in_wall[27] == 0 and in_wall[28] == 2
    assert by_action["chi 6m 45m"].acceptance == 4


# ----- every ruleset, bounds, JSON, determinism --------------------------------------------


def _check_bounds(review: HandReview, moves):
    assert 0 <= review.agreed <= review.choices <= len(review.decisions) <= len(moves)
    assert 0 <= review.mistakes <= len(review.decisions)
    assert 0 <= review.tiles_given_up <= 136 * max(1, review.mistakes)
    steps = [d.step for d in review.decisions]
    assert steps == sorted(set(steps)) and all(0 <= s < len(moves) for s in steps)
    assert review.biggest_mistake is None or review.biggest_mistake in steps
    for d in review.decisions:
        assert moves[d.step][0] == review.seat
        assert d.chosen in [o.action for o in d.options]
        assert d.bot in [o.action for o in d.options]
        assert d.forced == (len(d.options) == 1) or d.kind == "offer"
        assert d.kind in ("discard", "ready", "kong", "claim", "win", "offer")
        assert d.kind != "discard" or d.chosen.startswith("discard")
        assert 0 <= d.tiles_lost <= 136 and 0 <= d.shanten_lost <= 13
        assert d.lost == (d.shanten_lost > 0 or d.tiles_lost > 0)
        for o in d.options:
            if o.shanten is not None:
                assert -1 <= o.shanten <= 13 and 0 <= o.acceptance <= 136
                assert (o.shanten == -1) == (o.action == "hu")


@pytest.mark.parametrize("slug", SLUGS)
def test_a_bot_hand_of_every_ruleset_reviews_within_bounds(slug):
    for n in range(2):
        start, moves = _bot_hand(slug, f"bounds:{slug}:{n}", claim_pause=n == 1)
        reviews = review_seats(start, moves)
        for seat, review in reviews.items():
            assert review.seat == seat and review.ruleset == start.ruleset.slug
            _check_bounds(review, moves)
            data = json.loads(review.to_json())
            assert HandReview.from_dict(data) == review


def test_the_strong_bot_agrees_with_itself():
    start, moves = _bot_hand("classic", "agree")
    review = review_hand(start, moves, 0)
    assert review.choices and review.agreed == review.choices


def test_the_review_is_deterministic():
    start, moves = _bot_hand("wenzhou", "same")
    first = review_seats(start, moves)
    again = review_seats(new_hand("wenzhou", "same"), moves)
    assert {s: r.to_json() for s, r in first.items()} == {s: r.to_json() for s, r in again.items()}


def test_a_record_reviews_from_its_stored_final_state_and_seed():
    start, moves = _bot_hand("gb", "record", claim_pause=True)
    state = start
    for seat, text in moves:
        state, _ = apply(state, seat, parse_action(text))
    rebuilt = revealed_start(state.to_dict(), state.seed.hex(), state.commitment)
    logged = [(seat, text, "bot") for seat, text in moves] + [(0, "escape", "leave")]
    assert review_hand(rebuilt, logged, 1).to_dict()["decisions"] == [
        {**d, "by": "bot"} for d in review_hand(start, moves, 1).to_dict()["decisions"]
    ]


def test_a_record_whose_seed_is_not_the_commitments_is_refused():
    start, _moves = _bot_hand("gb", "record", claim_pause=True)
    other = new_hand("gb", "another seed")
    with pytest.raises(SeedMismatch):
        revealed_start(start.to_dict(), start.seed.hex(), other.commitment)
