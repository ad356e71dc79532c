"""Bot decisions (issue 6), written as positions in notation: each bot gets the seat's
view and the offered actions, nothing else."""

import copy

import pytest

from mahjong.engine.actions import Action, parse_action
from mahjong.engine.bots import LEVEL_SLUGS, LEVELS, choose_for, get_bot
from mahjong.engine.bots.shanten import pungs_shanten, seven_pairs_shanten, standard_shanten
from mahjong.engine.game import apply, legal_actions, new_hand
from mahjong.engine.scripted import scripted_hand
from mahjong.engine.state import ENDED
from mahjong.engine.tiles import parse_tiles
from mahjong.engine.views import view

THINKING = ("efficient", "strong")


def to_counts(kinds, size: int = 34) -> list[int]:
    counts = [0] * size
    for kind in kinds:
        counts[kind] += 1
    return counts


def decide(level, state, seat, seed=7):
    return str(choose_for(get_bot(level, seed), state, seat))


def counts(text):
    return to_counts(parse_tiles(text), 34)


# ----- the bots' shanten ---------------------------------------------------------------
@pytest.mark.parametrize(
    "tiles, expected",
    [
        ("123456789m11222z", -1),
        ("123456789m1122z", 0),
        ("12345689m11222z", 0),
        ("1357m2468p1357s1z", 4),
        ("11223344556677z", -1),
        ("1133557799m1357z", 1),
    ],
)
def test_the_bots_shanten_reads_standard_hands(tiles, expected):
    c = counts(tiles)
    assert min(standard_shanten(c, 4), seven_pairs_shanten(c)) == expected


@pytest.mark.parametrize("slug", ["classic", "gb", "wenzhou"])
def test_the_draws_of_an_improving_count_read_as_each_draw_alone(slug):
    # Analyst.improving asks about every draw at once (standard_after_draws): each answer
    # equals the shanten of the hand with that one tile added (gb: seven pairs too;
    # wenzhou: a random wild)
    import random
    from types import SimpleNamespace

    from mahjong.engine.bots.efficient import Analyst
    from mahjong.engine.rulesets import get_ruleset

    rs = get_ruleset(slug)
    rnd = random.Random(11)
    box = [k for k in range(34) for _ in range(4)]
    for size in (1, 4, 7, 10, 13) * 200:
        rnd.shuffle(box)
        wild = rnd.randrange(34) if slug == "wenzhou" else None
        tiles = box[:size]
        unseen = [4 - tiles.count(k) for k in range(34)]
        analyst = Analyst(SimpleNamespace(ruleset=rs, wild=wild, hand=tuple(tiles), unseen=unseen))
        c, sets = to_counts(tiles, 34), size // 3
        kinds = [k for k in range(34) if c[k] < 4]
        alone = []
        for k in kinds:
            c[k] += 1
            alone.append(analyst.shanten(c, sets))
            c[k] -= 1
        assert analyst.after_draws(c, sets, kinds) == alone, (tiles, sets, wild)


def test_all_pungs_shanten_counts_the_missing_copies():
    unseen = [4] * 34
    assert pungs_shanten(counts("111222333m4445z"), 4, unseen) == 0
    assert pungs_shanten(counts("111222333m4456z"), 4, unseen) == 1
    assert pungs_shanten(counts("111222333m444z5z"), 4, unseen[:31] + [0] + unseen[32:]) == 1


# ----- efficiency ----------------------------------------------------------------------
@pytest.mark.parametrize("level", THINKING)
def test_the_isolated_honor_goes_first(level):
    state = scripted_hand(
        "classic", dealer_hand="1236788m2345m55z1z", other_hand="99m111222333z44z"
    )
    assert decide(level, state, 0) in ("discard 1z", "ting 1z")


@pytest.mark.parametrize("level", THINKING)
def test_a_discard_that_leaves_the_hand_ready_is_declared_ready(level):
    state = scripted_hand("classic", dealer_hand="123456789m1122z7z", other_hand="99m333444666z77z")
    assert decide(level, state, 0) == "ting 7z"


def test_efficient_declares_no_ready_where_the_ruleset_has_none():
    state = scripted_hand("gb", dealer_hand="123456789m1122z7z", other_hand="99p333444666z77z")
    assert decide("efficient", state, 0) == "discard 7z"


@pytest.mark.parametrize("level", LEVEL_SLUGS[1:])
def test_every_thinking_level_takes_a_self_drawn_win(level):
    state = scripted_hand(
        "classic", dealer_hand="123456789m1122z5z", other_hand="8899m333444z66z7z", draws="6z1z"
    )
    state, _ = apply(state, 0, parse_action("discard 5z"))
    state, _ = apply(state, 1, parse_action("discard 7z"))  # no claim: seat 0 draws 1z
    assert state.turn == 0 and Action("hu") in legal_actions(state, 0)
    assert decide(level, state, 0) == "hu"


def _discard_win(slug):
    state = scripted_hand(
        slug, dealer_hand="99m1113334455z6z7z", other_hand="123456789m6677z", dealer=0
    )
    state, _ = apply(state, 0, parse_action("discard 6z"))
    assert state.turn == 1 and Action("hu") in legal_actions(state, 1)
    return state


@pytest.mark.parametrize(
    "level, slug",
    [("efficient", "classic"), ("efficient", "quesheng"), ("strong", "quesheng"), ("strong", "gb")],
)
def test_a_discard_win_is_taken(level, slug):
    assert decide(level, _discard_win(slug), 1) == "hu"


def test_strong_weighs_a_cheap_discard_win_against_a_self_draw_paying_three_times():
    # classic pays a self-draw x3: early, with 6z and 7z live, waiting is worth more;
    # with two tiles left in the wall the discard win is taken
    state = _discard_win("classic")
    offered = legal_actions(state, 1)
    early = get_bot("strong", 1).choose(view(state, 1), offered)
    late_view = view(state, 1)
    late_view["wall"]["live"] = 2
    late = get_bot("strong", 1).choose(late_view, offered)
    assert (str(early), str(late)) == ("pass", "hu")


@pytest.mark.parametrize("level", THINKING)
def test_a_chi_that_lowers_shanten_is_claimed(level):
    # seat 1 holds 45m and 78m partials; the 6m completes 456m or 678m
    state2 = scripted_hand(
        "classic", dealer_hand="1116m2225556667z", other_hand="45m78m123m1z2z3z4z5z6z"
    )
    state2, _ = apply(state2, 0, parse_action("discard 6m"))
    choice = decide(level, state2, 1)
    assert choice.startswith("chi 6m")


def test_efficient_passes_a_claim_that_does_not_help():
    state = scripted_hand("classic", dealer_hand="2345678m1234567z", other_hand="123456789m35m11z")
    state, _ = apply(state, 0, parse_action("discard 1z"))
    assert "pon 1z" in [str(a) for a in legal_actions(state, 1)]
    assert decide("efficient", state, 1) == "pass"


# ----- value, defence, 过胡 ---------------------------------------------------------------
def test_strong_keeps_a_flush_where_efficiency_is_even():
    # both discards leave 1-shanten; 4z keeps the full flush (清一色) in reach
    state = scripted_hand(
        "quesheng", dealer_hand="1234567m99m1345m4z", other_hand="2223336667z455z"
    )
    choice = decide("strong", state, 0)
    assert choice in ("discard 4z", "ting 4z")


def _ready_opponent_view(state, seat, river_tile):
    shown = view(state, seat)
    opponent = shown["seats"][1 - seat]
    opponent["ting"] = "ready"
    opponent["river"] = river_tile + opponent["river"]
    return shown


def test_strong_defends_against_a_ready_opponent_with_a_tile_they_discarded():
    # far from ready; the opponent declared ready and has discarded 5m since
    state = scripted_hand(
        "classic", dealer_hand="1359m258m1z2z3z5m6z7z4m", other_hand="2223336667z455z"
    )
    shown = _ready_opponent_view(state, 0, "5m")
    offered = legal_actions(state, 0)
    calm = str(get_bot("strong", 1).choose(view(state, 0), offered))
    wary = str(get_bot("strong", 1).choose(shown, offered))
    assert wary == "discard 5m"
    assert calm != "discard 5m"


def test_quesheng_guo_is_taken_early_and_refused_against_a_ready_opponent():
    # build the decision directly as a view: seat 1 ready on 36m, offered hu or guo on 6m
    ready = scripted_hand(
        "quesheng", dealer_hand="389m2225556667z6m", other_hand="45m111222999m11z", dealer=0
    )
    ready, _ = apply(ready, 0, parse_action("discard 6m"))
    offered = legal_actions(ready, 1)
    assert Action("hu") in offered
    shown = view(ready, 1)
    shown["seats"][1]["ting"] = "ready"
    guo_offer = [Action("hu"), Action("guo")]
    early = get_bot("strong", 3).choose(shown, guo_offer)
    threatened = copy.deepcopy(shown)
    threatened["seats"][0]["ting"] = "ready"
    threatened["wall"]["live"] = 4
    late = get_bot("strong", 3).choose(threatened, guo_offer)
    assert str(early) == "guo"
    assert str(late) == "hu"
    assert str(get_bot("efficient", 3).choose(shown, guo_offer)) == "hu"


# ----- the rules of the game for bots ---------------------------------------------------
def test_the_levels_have_names_in_both_languages_and_an_unknown_level_is_refused():
    assert len(LEVELS) >= 4 and LEVEL_SLUGS[0] == "random" and "strong" in LEVEL_SLUGS
    for level in LEVELS:
        assert level.name_zh and level.name_en and level.about_zh and level.about_en
    with pytest.raises(ValueError, match="unknown bot level"):
        get_bot("grandmaster", 1)


def _play(slug, levels, seed):
    state = new_hand(slug, seed)
    bots = [get_bot(levels[0], b"s0"), get_bot(levels[1], b"s1")]
    moves = []
    while state.phase != ENDED:
        seat = state.turn
        action = choose_for(bots[seat], state, seat)
        moves.append(str(action))
        state, _ = apply(state, seat, action)
    return moves, state.outcome.kind


@pytest.mark.parametrize("slug", ["classic", "quesheng", "gb"])
def test_bots_replay_the_same_hand_from_the_same_seeds(slug):
    assert _play(slug, ("strong", "novice"), b"again") == _play(
        slug, ("strong", "novice"), b"again"
    )


@pytest.mark.parametrize("level", LEVEL_SLUGS)
def test_a_bot_reads_only_the_view_and_decides_the_same_whatever_is_hidden(level):
    state = new_hand("classic", b"hidden")
    for _ in range(12):  # into the hand a little, with random-ish but legal play
        seat = state.turn
        state, _ = apply(state, seat, legal_actions(state, seat)[-1])
        if state.phase == ENDED:
            pytest.skip("hand ended early")
    seat = state.turn
    other = 1 - seat
    # swap the opponent's concealed tiles with tiles of the live wall: a different game
    # behind the same view
    theirs = list(state.seat(other).concealed)
    wall = list(state.live)
    swap = min(len(theirs), len(wall), 5)
    theirs[:swap], wall[:swap] = wall[:swap], theirs[:swap]
    changed = state.evolve(live=tuple(wall)).replace_seat(other, concealed=tuple(sorted(theirs)))
    shown, shown_changed = view(state, seat), view(changed, seat)
    assert shown == shown_changed
    offered = legal_actions(state, seat)
    assert legal_actions(changed, seat) == offered
    bot = get_bot(level, b"same")
    first = bot.choose(copy.deepcopy(shown), offered)
    assert get_bot(level, b"same").choose(shown_changed, offered) == first
    # the view holds nothing of the opponent's hand or the wall's order
    assert shown["seats"][other]["concealed"] is None
    assert "live" not in shown or not isinstance(shown["wall"]["live"], (list, tuple))


def test_a_bot_refuses_a_spectators_view():
    state = new_hand("classic", b"spectator")
    with pytest.raises(ValueError):
        get_bot("efficient", 1).choose(view(state, None), legal_actions(state, state.turn))


# ----- the ready declaration in the view (defence) ---------------------------------------
def test_the_discards_a_ready_opponent_let_pass_are_only_ones_made_after_the_declaration():
    from mahjong.engine.bots.seen import read_view

    checked = 0
    for n in range(12):
        state = new_hand("classic", f"passed{n}".encode())
        after = {0: set(), 1: set()}  # per seat: its discards since the other declared
        while state.phase != ENDED:
            seat = state.turn
            seen = read_view(view(state, seat))
            assert seen.passed_since_ready <= after[seat]
            checked += bool(seen.passed_since_ready)
            action = choose_for(get_bot("efficient", n), state, seat)
            if action.verb in ("discard", "ting") and state.seat(1 - seat).ting:
                after[seat].add(action.tile)
            state, _ = apply(state, seat, action)
    assert checked  # the property was met with something to check


def test_strong_treats_a_tile_the_ready_opponent_let_pass_as_safe():
    state = scripted_hand(
        "classic", dealer_hand="1359m258m1z2z3z5m6z7z4m", other_hand="2223336667z455z"
    )
    shown = view(state, 0)
    shown["seats"][1]["ting"], shown["seats"][1]["ting_at"] = "ready", 0
    shown["moves"] = 9  # three rounds since: my last 3 discards
    shown["seats"][0]["river"] = "1p2p5m"
    offered = legal_actions(state, 0)
    calm = str(get_bot("strong", 1).choose(view(state, 0), offered))
    assert calm != "discard 5m"
    assert str(get_bot("strong", 1).choose(shown, offered)) == "discard 5m"


# ----- wenzhou 财神 ----------------------------------------------------------------------
def test_the_bots_shanten_with_wilds_matches_the_engines():
    import random
    from types import SimpleNamespace

    from mahjong.engine import hand
    from mahjong.engine.bots.efficient import Analyst
    from mahjong.engine.rulesets import get_ruleset

    rs = get_ruleset("wenzhou")
    rnd = random.Random(6)
    box = [k for k in rs.kinds if k < 34 for _ in range(4)]
    compared = 0
    for _ in range(300):
        wild = rnd.randrange(34)
        rnd.shuffle(box)
        tiles = box[:16]
        if tiles.count(wild) > 3:
            continue
        unseen = [4 - tiles.count(k) - (k == wild) for k in range(34)]
        analyst = Analyst(SimpleNamespace(ruleset=rs, wild=wild, hand=tuple(tiles), unseen=unseen))
        exact = hand.shanten(tiles, (), rs, wild)
        assert analyst.shanten(to_counts(tiles, 34), 5) == exact, (tiles, wild)
        compared += wild in tiles
    assert compared > 30


@pytest.mark.parametrize("level", THINKING)
def test_a_white_dragon_plays_as_the_wilds_kind(level):
    # 财神 3m (the indicator is the first back tile): 5z is a plain 3m and makes 123m,
    # so the lone 7z goes, not the 5z
    state = scripted_hand(
        "wenzhou",
        dealer_hand="12456m789p12399s11z5z7z",
        other_hand="1111p2222p4444p5555p",
        back="3m",
    )
    assert decide(level, state, 0) in ("discard 7z", "ting 7z")
