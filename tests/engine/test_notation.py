import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong.engine.actions import VERBS, parse_action
from mahjong.engine.errors import EngineError, InvalidAction
from mahjong.engine.melds import parse_meld
from mahjong.engine.tiles import format_tiles, parse_tiles, tile_name


@pytest.mark.parametrize("text", ["123m456p789s1122z", "12f", "1m2p3m", "5z", "19m19p19s1234567z"])
def test_tiles_round_trip_exactly(text):
    assert format_tiles(parse_tiles(text)) == text


@given(st.lists(st.integers(0, 41), max_size=20))
def test_any_kinds_survive_format_then_parse(kinds):
    assert parse_tiles(format_tiles(kinds), check_copies=False) == kinds


def test_tile_kinds_are_laid_out_by_suit():
    assert parse_tiles("1m9m1p1s1z7z1f8f") == [0, 8, 9, 18, 27, 33, 34, 41]


@pytest.mark.parametrize("bad", ["0m", "8z", "9f", "5x", "11111m", "11f", "12", "m", "1m 2", ""])
def test_bad_tiles_are_refused_naming_the_input(bad):
    if bad == "":
        assert parse_tiles(bad) == []
        return
    with pytest.raises(InvalidAction) as err:
        parse_tiles(bad)
    assert repr(bad) in str(err.value) or bad.strip() in str(err.value)


@pytest.mark.parametrize(
    "bad", ["\u00b2m", "\uff15m", "\u0665m", "1\u00b9m", "\u0663\u0664\u0665m"]
)
def test_only_ascii_digits_are_tile_numbers(bad):
    """str.isdigit() is true of superscripts (int() refuses them with a bare ValueError,
    a 500 from the stage offer's form) and of other scripts' digits (which int() reads):
    a tile is written with 0-9 only, and anything else is an InvalidAction."""
    with pytest.raises(InvalidAction, match="unknown character"):
        parse_tiles(bad)
    with pytest.raises(InvalidAction):
        parse_action(f"discard {bad}")


def test_engine_errors_are_value_errors():
    assert issubclass(InvalidAction, EngineError)
    assert issubclass(EngineError, ValueError)


@pytest.mark.parametrize("text", ["chi 123m", "pon 777z", "kan 1111m", "ankan 2222p"])
def test_melds_round_trip(text):
    assert str(parse_meld(text)) == text


@pytest.mark.parametrize(
    "bad",
    [
        "chi 124m",
        "chi 123z",
        "chi 891m",
        "pon 778z",
        "kan 111m",
        "ankan 1112p",
        "grab 123m",
        "pon",
        "chi 12m3p",
    ],
)
def test_bad_melds_are_refused(bad):
    with pytest.raises(InvalidAction):
        parse_meld(bad)


@pytest.mark.parametrize(
    "text",
    [
        "draw",
        "discard 5m",
        "chi 3m 45m",
        "pon 7z",
        "kan 7z",
        "ankan 2222p",
        "addkan 5m",
        "hu",
        "pass",
        "ting 9m",
        "guo",
        "exchange 19m5z",
        "cuo 5m",
        "swap 258m",
    ],
)
def test_actions_round_trip(text):
    assert str(parse_action(text)) == text


def test_every_verb_has_a_round_trip_case():
    tested = {
        "draw",
        "discard",
        "chi",
        "pon",
        "kan",
        "ankan",
        "addkan",
        "hu",
        "pass",
        "ting",
        "guo",
        "exchange",
        "cuo",
        "swap",
    }
    assert tested == set(VERBS)


@pytest.mark.parametrize(
    "bad",
    [
        "discard",
        "discard 5m6m",
        "chi 3m",
        "chi 3m 4m",
        "ankan 222p",
        "hu 5m",
        "fly 5m",
        "discard 0m",
        "swap 25m",
        5,
        None,
        "discard " + "1m" * 40,
    ],
)
def test_bad_actions_are_refused(bad):
    with pytest.raises(InvalidAction):
        parse_action(bad)


def test_tile_names_in_both_languages():
    assert tile_name(parse_tiles("5m")[0]) == "五万"
    assert tile_name(parse_tiles("5m")[0], "en") == "Five of characters"
    assert tile_name(parse_tiles("7z")[0]) == "红中"
    assert tile_name(parse_tiles("8f")[0], "en") == "Chrysanthemum"
