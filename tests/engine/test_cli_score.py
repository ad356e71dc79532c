"""``python -m mahjong.engine score --rules SLUG`` through a real subprocess: one JSON
line out per line in, error lines for bad or non-winning hands."""

import json
import subprocess
import sys

import pytest


def run(slug: str, *lines, extra=()) -> list[dict]:
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    out = subprocess.run(
        [sys.executable, "-m", "mahjong.engine", "score", "--rules", slug, *extra],
        input=text + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_gb_answers_total_and_fans_with_chinese_names():
    [answer] = run(
        "gb", {"id": 7, "hand": "1112345678999m", "win": "5m", "tsumo": True, "flowers": "1f2f"}
    )
    assert answer["id"] == 7 and answer["total"] == 88 + 2 + 1 + 1 + 2
    assert answer["fans"][0] == {
        "key": "jiu_lian_bao_deng",
        "name": "九莲宝灯",
        "fan": 88,
        "count": 1,
    }
    assert {"key": "hua_pai", "name": "花牌", "fan": 1, "count": 2} in answer["fans"]
    assert "below_minimum" not in answer


def test_a_gb_hand_under_eight_fan_is_reported_not_refused():
    [answer] = run("gb", {"id": 1, "hand": "123m456p678s234s5z", "win": "5z"})
    assert answer["below_minimum"] is True and answer["total"] < 8


def test_melds_seat_and_round_in_every_accepted_spelling():
    common = {"hand": "123m456p789s5z", "win": "5z"}
    answers = run(
        "gb",
        {**common, "id": 1, "melds": ["pon 222z"], "seat": "S", "round": "2z"},
        {**common, "id": 2, "melds": "pon 222z", "seat": "2z", "round": "S"},
    )
    for answer in answers:
        keys = {f["key"] for f in answer["fans"]}
        assert {"quan_feng_ke", "men_feng_ke"} <= keys


def test_classic_total_is_the_capped_basic_points():
    [answer] = run("classic", {"id": "a", "hand": "111222333444z5m", "win": "5m"})
    assert answer["total"] == 13 and answer["fans"][0]["key"] == "da_si_xi"


def test_wenzhou_total_is_the_multiplier():
    [answer] = run(
        "wenzhou",
        {"id": 1, "hand": "111222333m444p555s9s", "win": "9s", "tsumo": True, "wild": "1z"},
    )
    assert answer["total"] == 4


def test_quesheng_passes_double_the_total():
    [once, twice] = run(
        "quesheng",
        {"id": 1, "hand": "123456789m1112z", "win": "2z", "ting": "ready"},
        {"id": 2, "hand": "123456789m1112z", "win": "2z", "ting": "ready", "passes": 1},
    )
    assert twice["total"] == 2 * once["total"]
    # the doubling is a line of its own: the fan lines add up to the total before it
    assert "guo_hu" not in [f["key"] for f in once["fans"]]
    [line] = [f for f in twice["fans"] if f["key"] == "guo_hu"]
    assert line == {"key": "guo_hu", "name": "过胡加倍", "times": 2}
    summed = sum(f["fan"] * f["count"] for f in twice["fans"] if "fan" in f)
    assert summed * line["times"] == twice["total"]


@pytest.mark.parametrize(
    "line,words",
    [
        ({"id": 1, "hand": "123m456p789s1123z", "win": "5z"}, "not a winning hand"),
        ({"id": 2, "hand": "123m", "win": "5z"}, "13"),
        ({"id": 3, "hand": "0m23m456p789s1122z", "win": "1z"}, "0m"),
        ({"id": 4, "hand": "123m456p789s1122z", "win": "1z", "seat": "X"}, "seat"),
        ({"id": 5, "hand": "123m456p789s1122z", "win": "1z", "tsumo": "yes"}, "tsumo"),
        ({"id": 6, "hand": "123m456p789s1122z"}, "win"),
        ({"id": 7, "hand": "123m456p789s1122z", "win": "1z", "ting": "maybe"}, "ting"),
    ],
)
def test_bad_and_non_winning_hands_get_an_error_line(line, words):
    [answer] = run("gb", line)
    assert answer["id"] == line["id"] and words in answer["error"]


def test_each_input_line_gets_exactly_one_output_line_even_after_garbage():
    answers = run("gb", "not json", {"id": 2, "hand": "123m456p789s1122z", "win": "1z"})
    assert len(answers) == 2 and "error" in answers[0] and answers[1]["id"] == 2


def test_overrides_change_fan_values():
    [answer] = run(
        "gb",
        {"id": 1, "hand": "1112345678999m", "win": "5m"},
        extra=("--overrides", '{"fan_values": {"jiu_lian_bao_deng": 100}}'),
    )
    assert answer["fans"][0]["fan"] == 100


def test_the_fast_request_parser_reads_hands_and_context_as_the_plain_one():
    import random

    from mahjong.engine.cli.score import _hand, context_from_request
    from mahjong.engine.errors import InvalidAction
    from mahjong.engine.shapes import WinContext
    from mahjong.engine.tiles import parse_tiles

    rnd = random.Random(3)
    for _ in range(300):
        text = "".join(rnd.choice("0123456789mpszf x") for _ in range(rnd.randrange(12)))
        try:
            expected = tuple(parse_tiles(text, check_copies=False))
        except InvalidAction as exc:
            with pytest.raises(InvalidAction, match=str(exc).split(" in ")[0]):
                _hand(text)
        else:
            assert _hand(text) == expected
    request = {
        "hand": "123m456p789s1z",
        "melds": ["pon 777z"],
        "win": "1z",
        "tsumo": True,
        "seat": "S",
        "flowers": "1f",
        "ting": "ready",
    }
    from mahjong.engine.melds import parse_meld

    assert context_from_request(request) == WinContext(
        hand=tuple(parse_tiles("123m456p789s1z")),
        melds=(parse_meld("pon 777z"),),
        win=27,
        tsumo=True,
        seat_wind=28,
        flowers=(34,),
        flower_count=1,
        ting="ready",
    )
