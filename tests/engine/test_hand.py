"""Hand analysis by example, hands in notation (RULES.md 3.8, 3.15, 8.2, 5.1, 9.2-9.3)."""

import pytest

from mahjong.engine.errors import InvalidAction
from mahjong.engine.hand import decompose, is_win, ready_discards, shanten, waits
from mahjong.engine.melds import parse_melds
from mahjong.engine.rulesets import RULESETS
from mahjong.engine.tiles import format_tiles, parse_tile, parse_tiles

GB, STAGE, WENZHOU, CLASSIC, TIAO72 = (
    RULESETS[s] for s in ("gb", "stage", "wenzhou", "classic", "tiao72")
)


def hand(text):
    return parse_tiles(text)


def melds(text):
    return tuple(parse_melds(text)) if text else ()


def wait_text(tiles, meld_text="", ruleset=None, wild=None):
    return format_tiles(waits(hand(tiles), melds(meld_text), ruleset, wild))


def readings(tiles, win, ruleset=None, meld_text="", tsumo=True, wild=None):
    return decompose(
        hand(tiles), melds(meld_text), parse_tile(win), ruleset, tsumo=tsumo, wild=wild
    )


# ----- shanten and waits, default forms ---------------------------------------------


@pytest.mark.parametrize(
    "tiles,expected",
    [
        ("123m456p789s1122z", 0),
        ("123m456p789s11223z", 0),  # 14 tiles: discard 3z and wait on 1z/2z
        ("123m456p789s11222z", -1),
        ("1112345678999m", 0),
        ("19m19p19s1234567z", 0),
        ("19m19p19s12345677z", -1),
        ("1122334455667m", 0),
        ("11223344556677m", -1),
        ("123456789m1234z", 2),
        ("147m258p369s1234z", 6),
        ("159m159p159s1357z", 3),  # thirteen orphans is the closest form here
        ("1m", 0),
        ("14m", 0),
        ("15m", 0),  # 14-tile logic: discard one, wait on the other
        ("1111m", 1),  # 111m + a single 1m waits only on a dead tile
        ("1111m2222p3333s4z", 0),
    ],
)
def test_shanten_by_example(tiles, expected):
    assert shanten(hand(tiles)) == expected


@pytest.mark.parametrize(
    "tiles,expected",
    [
        ("1112345678999m", "123456789m"),
        ("19m19p19s1234567z", "19m19p19s1234567z"),
        ("19m19p19s1234566z", "7z"),
        ("1122334455667m", "147m"),  # seven pairs 7m, standard 1m/4m
        ("123m456p789s1122z", "12z"),
        ("1233m456p789s111z", "3m"),
        ("12345m456p789s11z", "36m"),
        ("1111222233334m", "45m"),
        ("1m", "1m"),
    ],
)
def test_waits_by_example(tiles, expected):
    assert wait_text(tiles) == expected
    assert waits(hand(tiles))  # ready


@pytest.mark.parametrize(
    "tiles,meld_text,expected",
    [
        ("1111m234p567s999p", "", ""),  # 1m is held four times: its waits are dead
        ("4444m", "", ""),  # single or shanpon wait: only 4m, dead
        ("1234m", "pon 111m, pon 222p, pon 333s", "4m"),  # 1m would be a fifth copy
        ("4m", "pon 444m, pon 222p, pon 333s, chi 123s", ""),
        ("1112m", "kan 2222p, pon 333s, chi 123s", "23m"),
        ("1222m", "kan 3333m, pon 333s, chi 123s", "1m"),  # 3m would be a fifth copy
    ],
)
def test_dead_waits_are_never_waits(tiles, meld_text, expected):
    assert wait_text(tiles, meld_text) == expected


def test_a_hand_whose_only_waits_are_dead_is_not_ready():
    tiles = hand("1111m")
    assert waits(tiles) == []  # not ready
    assert shanten(tiles) == 1
    single = hand("4m")
    pon = melds("pon 444m, pon 222p, pon 333s, chi 123s")
    assert waits(single, pon) == [] and shanten(single, pon) == 1


def test_seven_pairs_take_four_identical_tiles_as_two_pairs():
    assert is_win(hand("11112233445566m"), (), CLASSIC)
    assert wait_text("1111223344556z", "", CLASSIC) == "6z"
    (reading,) = readings("1111223344556z", "6z", CLASSIC)
    assert reading.form == "seven_pairs"
    assert [format_tiles(b.tiles) for b in reading.blocks][:2] == ["11z", "11z"]


def test_seven_pairs_need_a_concealed_hand():
    assert not is_win(hand("11223344556m"), melds("pon 777m"), CLASSIC)
    assert shanten(hand("1122334455667m")) == 0


@pytest.mark.parametrize(
    "tiles,expected",
    [
        ("123m456p789s1122z55z", r"3n\+1 or 3n\+2"),
        ("", r"3n\+1 or 3n\+2"),
    ],
)
def test_bad_tile_counts_are_refused(tiles, expected):
    with pytest.raises(InvalidAction, match=expected):
        shanten(hand(tiles))


# ----- wait types (RULES.md 3.8.6) ----------------------------------------------------


@pytest.mark.parametrize(
    "tiles,win,expected,absent",
    [
        ("1233m456p789s111z", "3m", {"edge", "pair"}, set()),
        ("7789m456p789s111z", "7m", {"edge", "pair"}, set()),
        ("4556m456p789s111z", "5m", {"closed", "pair"}, set()),
        ("12345m456p789s11z", "3m", {"two_sided", "other"}, {"edge"}),
        ("56789m456p789s11z", "7m", {"two_sided", "other"}, {"edge", "closed"}),
        ("45567m456p789s11z", "6m", {"two_sided", "other"}, {"closed"}),
        ("13m456p789s11122z", "2m", {"closed"}, set()),
        ("12m456p789s11122z", "3m", {"edge"}, set()),
        ("89m456p789s11122z", "7m", {"edge"}, set()),
        ("34m456p789s11122z", "5m", {"two_sided"}, set()),
        ("123m456p789s1112z", "2z", {"pair"}, set()),
        ("1112m456p789s111z", "2m", {"other"}, {"pair"}),  # also waits on 3m: no 单钓
        ("11m456p789s11122z", "1m", {"pung"}, set()),
    ],
)
def test_wait_types_follow_the_exactly_one_kind_rule(tiles, win, expected, absent):
    found = {d.wait for d in readings(tiles, win)}
    assert expected <= found and not (absent & found)


def test_win_block_holds_the_winning_tile():
    for d in readings("1233m456p789s111z", "3m"):
        assert parse_tile("3m") in d.blocks[d.win_block].tiles


def test_each_block_holding_the_winning_tile_is_its_own_decomposition():
    found = sorted(
        (d.wait, format_tiles(d.blocks[d.win_block].tiles))
        for d in readings("1233m456p789s111z", "3m")
    )
    assert found == [("edge", "123m"), ("pair", "33m")]


def test_a_pung_completed_by_a_discard_is_exposed():
    (on_discard,) = [d for d in readings("11m456p789s11122z", "1m", tsumo=False)]
    (self_drawn,) = [d for d in readings("11m456p789s11122z", "1m", tsumo=True)]
    assert not on_discard.blocks[on_discard.win_block].concealed
    assert self_drawn.blocks[self_drawn.win_block].concealed
    others = [b for i, b in enumerate(on_discard.blocks) if i != on_discard.win_block]
    assert all(b.concealed for b in others)


def test_melds_become_blocks():
    (d,) = readings("1m", "1m", None, "chi 123p, pon 777z, kan 1111s, ankan 9999p")
    shapes = sorted((b.shape, b.meld, b.concealed) for b in d.blocks)
    assert shapes == [
        ("chow", "chi", False),
        ("kong", "ankan", True),
        ("kong", "kan", False),
        ("pair", None, True),
        ("pung", "pon", False),
    ]
    assert d.form == "standard" and d.wait == "pair"


def test_not_a_win_has_no_decomposition():
    assert readings("123m456p789s1122z", "3z") == []


def test_multiple_readings_are_all_returned():
    found = {
        tuple(format_tiles(b.tiles) for b in d.blocks) for d in readings("111222333m789p1z", "1z")
    }
    assert ("123m", "123m", "123m", "789p", "11z") in found
    assert ("789p", "11z", "111m", "222m", "333m") in found


# ----- gb special forms (RULES.md 8.2) ------------------------------------------------


@pytest.mark.parametrize(
    "tiles,win,form",
    [
        ("147m258p369s1234z", "5z", "quan_bu_kao"),
        ("147m258p36s12345z", "7z", "quan_bu_kao"),
        ("14m258p369s12345z", "7z", "quan_bu_kao"),
        ("14m258p36s123456z", "7z", "quan_bu_kao"),
        ("14m258p36s123456z", "7z", "qi_xing_bu_kao"),
        ("47m25p36s1234567z", "1m", "qi_xing_bu_kao"),
        ("147m258p369s1z678m", "1z", "zu_he_long"),
        ("369m147p258s5z111s", "5z", "zu_he_long"),
        ("19m19p19s1234567z", "1m", "thirteen_orphans"),
        ("19m19p19s1234566z", "7z", "thirteen_orphans"),
    ],
)
def test_gb_special_forms_win(tiles, win, form):
    forms = {d.form for d in readings(tiles, win, GB)}
    assert form in forms
    assert is_win(hand(tiles) + [parse_tile(win)], (), GB)


@pytest.mark.parametrize(
    "tiles,win",
    [
        ("147m258p369s1234z", "4z"),  # a pair breaks 全不靠
        ("147m258p358s1234z", "5z"),  # 3s and 8s mix two knitted groups
        ("147m258p369s1z67m", "1z"),  # knitted straight + 67m is no set
    ],
)
def test_gb_near_misses_do_not_win(tiles, win):
    assert readings(tiles, win, GB) == []


def test_zu_he_long_takes_a_meld_as_its_set():
    (d,) = readings("147m258p369s1z", "1z", GB, "pon 555p", tsumo=False)
    assert d.form == "zu_he_long"
    assert sorted(b.shape for b in d.blocks) == ["knitted", "pair", "pung"]


def test_gb_knitted_waits_and_shanten():
    assert wait_text("147m258p369s1234z", "", GB) == "567z"
    assert shanten(hand("147m258p369s1234z"), (), GB) == 0
    assert shanten(hand("147m258p369s1234z")) == 6  # no knitted forms by default


def test_knitted_forms_only_where_the_ruleset_has_them():
    assert not is_win(hand("147m258p369s12345z"), (), CLASSIC)
    assert readings("147m258p369s1234z", "5z", CLASSIC) == []


# ----- stage: thirteen orphans and loose all-green ------------------------------------


@pytest.mark.parametrize(
    "tiles,win",
    [
        ("22334466888s66z", "2s"),
        ("2222333344446s", "6s"),
        ("2468s2468s66z234s", "8s"),
    ],
)
def test_stage_loose_all_green_wins_in_any_shape(tiles, win):
    assert "lv_yi_se_loose" in {d.form for d in readings(tiles, win, STAGE)}


def test_loose_all_green_is_stage_only_and_concealed():
    assert readings("22334466888s66z", "2s", GB) == []
    with_pon = decompose(hand("2233446688s"), melds("pon 666z"), parse_tile("8s"), STAGE)
    assert with_pon and "lv_yi_se_loose" not in {d.form for d in with_pon}
    assert wait_text("22334466888s66z", "", STAGE) == "23468s6z"


def test_stage_has_thirteen_orphans_and_tiao72_does_not():
    assert is_win(hand("19m19p19s12345677z"), (), STAGE)
    assert not is_win(hand("19m19p19s12345677z"), (), TIAO72)


# ----- wenzhou: 财神, 白板, 硬八对, 三财神 (RULES.md 9.2-9.3) ----------------------

W1M = parse_tile("1m")  # the wild kind (indicator 1m): 1m tiles are 财神


@pytest.mark.parametrize(
    "tiles,win,wilds",
    [
        ("234m456m789p123s999s1m", "4z", 1),  # a wild pairs the 4z
        ("34m456m789p123s444z9s1m", "9s", 1),  # a wild completes 34m as 2m or 5m
        ("23m456m789p123s444z9s1m", "9s", 0),  # ...or 123m at its own face (财神归位)
        ("11m234m456m789p123s44z", "4z", 0),  # two wilds: their own face pair
        ("5z23m456m789p123s444z9s", "9s", 0),  # 白板 plays as 1m: 1(5z)23m
    ],
)
def test_wenzhou_wild_wins(tiles, win, wilds):
    found = readings(tiles, win, WENZHOU, wild=W1M)
    assert found and min(d.wilds for d in found) == wilds
    assert is_win(hand(tiles) + [parse_tile(win)], (), WENZHOU, W1M)


def test_wenzhou_white_dragon_plays_as_the_wild_kind():
    (d,) = readings("5z23m456m789p123s444z9s", "9s", WENZHOU, wild=W1M)
    assert "123m" in [format_tiles(b.tiles) for b in d.blocks]
    assert d.wilds == 0


def test_wenzhou_without_wild_indicator_white_is_plain():
    assert not is_win(hand("5z23m456m789p123s444z99s"), (), WENZHOU, None)


def test_wenzhou_wild_white_dragon_means_white_dragons_are_wild():
    white = parse_tile("5z")
    assert is_win(hand("5z23m456m789p123s444z99s"), (), WENZHOU, white)
    assert not is_win(hand("6z23m456m789p123s444z99s"), (), WENZHOU, white)


def test_wenzhou_standard_is_five_sets_and_a_pair():
    assert is_win(hand("123m456m789p123s444z99s"), (), WENZHOU, W1M)
    assert not is_win(hand("123m456m789p44z"), (), WENZHOU, W1M)  # four sets: too short


@pytest.mark.parametrize(
    "tiles,win,form",
    [
        ("2233445566778899p", "9p", "ying_ba_dui"),
        ("2222445566778899p", "9p", "ying_ba_dui"),  # four 2p are two pairs
        ("1122334455667788p", "1m", None),  # eight pairs + a wild: soft, no win
    ],
)
def test_wenzhou_hard_eight_pairs(tiles, win, form):
    forms = {d.form for d in readings(tiles, win, WENZHOU, wild=W1M)}
    assert (form in forms) if form else "ying_ba_dui" not in forms


def test_hard_eight_pairs_allow_wilds_at_their_own_face():
    forms = {d.form for d in readings("11m22334455667788p", "8p", WENZHOU, wild=W1M)}
    assert "ying_ba_dui" in forms


def test_three_wilds_win_on_own_turn_whatever_the_shape():
    tiles = "111m258m147p369s1357z"
    assert is_win(hand(tiles) + [parse_tile("2z")], (), WENZHOU, W1M)
    self_drawn = {d.form for d in readings(tiles, "2z", WENZHOU, wild=W1M)}
    on_discard = {d.form for d in readings(tiles, "2z", WENZHOU, wild=W1M, tsumo=False)}
    assert "san_cai_shen" in self_drawn and "san_cai_shen" not in on_discard


def test_two_wilds_alone_are_a_pair():
    assert is_win(hand("11m234m456m789p123s444z"), (), WENZHOU, W1M)


def test_wilds_are_never_offered_as_discards():
    offers = ready_discards(hand("1m234m456m789p123s444z9s"), (), WENZHOU, W1M)
    assert W1M not in offers and offers


# ----- ready_discards ------------------------------------------------------------------


def test_ready_discards_lists_each_discard_and_its_waits():
    offers = ready_discards(hand("123m456p789s11223z"), (), CLASSIC)
    assert {format_tiles([k]): format_tiles(v) for k, v in offers.items()} == {"3z": "12z"}


def test_ready_discards_is_empty_far_from_ready():
    assert ready_discards(hand("147m258p369s12345z"), (), CLASSIC) == {}


def test_only_ruleset_kinds_can_be_waits():
    assert wait_text("1122334455667s", "", TIAO72) == "147s"
    assert all(k >= 18 for k in waits(hand("123s456s789s1122z"), (), TIAO72))
