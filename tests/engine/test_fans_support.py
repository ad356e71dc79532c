"""Hands in one line for the fan tests: ``"HAND WIN [flag ...] [| meld, meld]"``, e.g.
``"123m456p789s1122z 1z tsumo seat=W | pon 777z"``. Flags are the score CLI's fields:
a bare name is true, ``name=value`` sets a value (numbers are numbers)."""

from __future__ import annotations

from mahjong.engine.cli.score import context_from_request
from mahjong.engine.fans import score_win
from mahjong.engine.rulesets import get_ruleset


def request(text: str) -> dict:
    head, _, melds = text.partition("|")
    hand, win, *flags = head.split()
    out = {"hand": hand, "win": win, "melds": [m.strip() for m in melds.split(",") if m.strip()]}
    for flag in flags:
        name, _, value = flag.partition("=")
        out[name] = (int(value) if value.isdigit() else value) if value else True
    return out


def score(slug: str, text: str, overrides=None):
    return score_win(get_ruleset(slug, overrides), context_from_request(request(text)))


def fan_keys(slug: str, text: str, overrides=None) -> dict[str, int]:
    """key -> count of the counted fans (empty if not a win)."""
    return {s.key: s.count for s in score(slug, text, overrides).fans}


def test_the_one_line_notation_reads_every_field():
    assert request("123m 4m tsumo seat=W flowers=2 | pon 777z, chi 123p") == {
        "hand": "123m",
        "win": "4m",
        "tsumo": True,
        "seat": "W",
        "flowers": 2,
        "melds": ["pon 777z", "chi 123p"],
    }
