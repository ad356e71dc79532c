"""The players' rule book: a ruleset as the operator runs it, in the page's language.

The facts, the payment formula and the fan values come from the engine's Ruleset with
the operator's overrides applied (``lobby.models.Ruleset.engine``), so the page never
says 13 where the admin set 10; the prose (a summary, the rules of play, each fan's
condition) is data, ``texts/<engine slug>.json``, written from RULES.md in both languages.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from mahjong.engine import fans, shapes
from mahjong.engine.errors import EngineError
from mahjong.engine.stage import HAIDI_DRAWS_FIVE
from mahjong.engine.tiles import FLOWERS, format_tile, parse_tiles
from mahjong.tables import points_help

TEXTS = Path(__file__).resolve().parent / "texts"
# 关卡 scores with the classic fan table (RULES.md 5.1): its conditions are classic's.
FAN_TEXTS = {"stage": "classic"}


@cache
def texts(name: str) -> dict:
    """texts/<name>.json: {"summary": {zh, en}, "play": [{zh, en}], "fans": {key: {zh, en}}};
    a fan's text may add "needs", the suits ("mps") without which it cannot occur, or
    "never": true where the tiles' counts rule it out."""
    return json.loads((TEXTS / f"{name}.json").read_text(encoding="utf-8"))


def said(text: dict) -> str:
    """One bilingual text in the page's language: Chinese unless the page is English."""
    return text["en"] if get_language() == "en" else text["zh"]


def summary(slug: str) -> list[dict]:
    return parts(said(texts(slug)["summary"]))


def play_rules(slug: str) -> list[list[dict]]:
    """The rules of play, each a text's parts (its tile examples drawn as tiles)."""
    return [parts(said(item)) for item in texts(slug).get("play", [])]


def fan_rows(rs) -> list[dict]:
    """Each fan of ``rs``'s table in its order: names, the value the operator set, what
    it takes, and the fans it leaves uncounted (不计). Flower fans are left out of rules
    without flowers (stage mode plays classic's table with none)."""
    table = fans.table_for(rs)
    value = table.value_of(rs.fan_values)
    by_key = {fan.key: fan for fan in table.fans}
    conditions = texts(FAN_TEXTS.get(rs.slug, rs.slug))["fans"]
    return [
        {
            "key": fan.key,
            "zh": fan.zh,
            "en": fan.en,
            "value": value(fan.key),
            "yakuman": fan.yakuman,
            "condition": parts(said(conditions[fan.key])),
            "impossible": _impossible(conditions[fan.key], rs),
            "excludes": [by_key[key] for key in (*fan.excludes, *fan.replaces) if key in by_key],
            "excludes_one": [by_key[key] for key in fan.excludes_one if key in by_key],
        }
        for fan in table.fans
        if rs.flowers or not fan.flower
    ]


def _impossible(text: dict, rs) -> bool:
    """A fan these tiles cannot make: one of three suits in classic's 72 tiles of 万 and
    honors (RULES.md 4.4), or one the texts mark "never" (tiao72's 全大 needs 14 of the 12
    tiles 7-9 of bamboo; 无字 always goes with 清一色, which leaves it out)."""
    return text.get("never", False) or not set(text.get("needs", "")) <= set(rs.suits)


EXAMPLE = re.compile(r"`([^`]+)`")


def parts(text: str) -> list[dict]:
    """A text with its `123m 55z` examples as rows of tiles: {"text"} and {"tiles": [[..]]}
    (one list a group, as written); an example that is not tiles stays {"code"}."""
    out = []
    for i, piece in enumerate(EXAMPLE.split(text)):
        if i % 2 == 0:
            if piece:
                out.append({"text": piece})
            continue
        try:
            groups = [
                [format_tile(k) for k in parse_tiles(group, check_copies=False)]
                for group in piece.split()
            ]
        except EngineError:
            out.append({"code": piece})
        else:
            out.append({"tiles": groups, "code": piece})
    return out


def multiplies(rs) -> bool:
    """温州: each item doubles the hand (×2), the fans are not added (RULES.md 9.4)."""
    return fans.table_for(rs).multiplicative


def facts(rs) -> list[tuple[str, str]]:
    """At a glance: (what, how) rows, every number the ruleset's own."""
    rows = [
        (_("Tile set"), _tiles(rs)),
        (_("Hand size"), _hand(rs)),
        (_("Winning hands"), _("; ").join(_forms(rs))),
    ]
    rows += [(label, text) for label, text in _options(rs) if text]
    rows.append((_("Dealer"), _dealer(rs)))
    rows.append(
        (
            _("Time to act"),
            ngettext(
                "%(n)s second for each decision; a player who lets it run out is played for.",
                "%(n)s seconds for each decision; a player who lets it run out is played for.",
                rs.timers.decision,
            )
            % {"n": rs.timers.decision},
        )
    )
    if rs.scoring != "stage":
        rows.append((_("Leaving a hand (逃跑)"), _escape(rs)))
    return rows


def formula(rs) -> list[str]:
    """How a win is paid, at the ruleset's own base (a room multiplies it by its beans)."""
    return points_help.formula(rs, rs.base_points)


SUIT_NAMES = {
    "m": lambda: _("characters (万) 1–9"),
    "p": lambda: _("dots (筒) 1–9"),
    "s": lambda: _("bamboo (条) 1–9"),
    "z": lambda: _("the four winds and three dragons"),
}


def _tiles(rs) -> str:
    kinds = _(", ").join(SUIT_NAMES[suit]() for suit in rs.suits)
    text = ngettext(
        "%(n)s tile: %(kinds)s, %(copies)s of each",
        "%(n)s tiles: %(kinds)s, %(copies)s of each",
        rs.tile_count,
    ) % {"n": rs.tile_count, "kinds": kinds, "copies": rs.copies}
    if rs.flowers:
        text += _(", and %(n)s flowers") % {"n": len(FLOWERS)}
    if rs.playing_tiles:
        text += _("; each hand is played with %(n)s of them") % {"n": rs.playing_tiles}
    return _("%(tiles)s.") % {"tiles": text}


def _hand(rs) -> str:
    return _("%(n)s tiles; the dealer starts with %(dealer)s.") % {
        "n": rs.hand_size,
        "dealer": rs.hand_size + 1,
    }


def _forms(rs) -> list[str]:
    names = {
        shapes.STANDARD: lambda: (
            ngettext(
                "%(n)s set (chow, pung or kong) and a pair",
                "%(n)s sets (chows, pungs or kongs) and a pair",
                rs.sets_in_hand,
            )
            % {"n": rs.sets_in_hand}
        ),
        shapes.SEVEN_PAIRS: lambda: _("seven pairs"),
        shapes.THIRTEEN_ORPHANS: lambda: _("thirteen orphans (国士无双)"),
        shapes.QUAN_BU_KAO: lambda: _("knitted tiles (全不靠)"),
        shapes.QI_XING_BU_KAO: lambda: _("seven knitted honors (七星不靠)"),
        shapes.ZU_HE_LONG: lambda: _("knitted straight (组合龙) with a set and a pair"),
        shapes.LV_YI_SE_LOOSE: lambda: _("any 14 green tiles (绿一色)"),
        shapes.YING_BA_DUI: lambda: _("hard eight pairs (硬八对)"),
        shapes.SAN_CAI_SHEN: lambda: _("all three wilds (三财神), whatever the rest"),
    }
    return [names[form]() for form in shapes.FORMS if form in rs.forms and _reachable(rs, form)]


def _reachable(rs, form: str) -> bool:
    """A form listed for a ruleset whose tiles cannot make it is not offered to a reader:
    classic's 72 tiles have no 筒 or 条 for 国士无双 or 绿一色 (RULES.md 4.5)."""
    if form == shapes.THIRTEEN_ORPHANS:
        return set("mpsz") <= set(rs.suits)
    if form == shapes.LV_YI_SE_LOOSE:
        return "s" in rs.suits
    return True


def _options(rs) -> list[tuple[str, str]]:
    return [
        (
            _("Flowers"),
            _("Drawn flowers are set aside and replaced; they count at a win.")
            if rs.flowers
            else "",
        ),
        (_("Declaring ready (报听)"), _bao_ting(rs)),
        (_("After the wall (海底捞月)"), _haidi(rs)),
        (
            _("Wilds (财神)"),
            _(
                "A tile turned up after the deal names the wild kind: its "
                "other copies stand for any tile in a winning hand."
            )
            if rs.wilds
            else "",
        ),
        (
            _("Passing a win (过胡加倍)"),
            ngettext(
                "Each win you pass doubles your fan, at most %(n)s time a hand.",
                "Each win you pass doubles your fan, at most %(n)s times a hand.",
                rs.max_guo,
            )
            % {"n": rs.max_guo}
            if rs.guo_hu
            else "",
        ),
        (
            _("Robbing a kong (抢杠)"),
            _("You may win on the tile the opponent adds to a pung.") if rs.rob_kong else "",
        ),
        (
            _("Minimum fan"),
            ngettext(
                "A hand needs at least %(n)s fan to win; flowers do not count towards it.",
                "A hand needs at least %(n)s fan to win; flowers do not count towards it.",
                rs.min_fan,
            )
            % {"n": rs.min_fan}
            if rs.min_fan
            else "",
        ),
    ]


def _haidi(rs) -> str:
    if not rs.haidi_phase:
        return ""
    text = ngettext(
        "When the wall runs out, a ready player (the first to be ready, if both are) draws up "
        "to %(n)s more tile, and wins on one that completes the hand.",
        "When the wall runs out, a ready player (the first to be ready, if both are) draws up "
        "to %(n)s more tiles, and wins on one that completes the hand.",
        rs.haidi_draws,
    ) % {"n": rs.haidi_draws}
    if rs.scoring == "stage":  # 五张海底摸牌 (RULES.md 5.2)
        text += " " + _("From stage 2 on, %(n)s tiles.") % {"n": HAIDI_DRAWS_FIVE}
    return text


def _bao_ting(rs) -> str:
    if not rs.bao_ting:
        return ""
    if rs.tian_ting:
        return _(
            "A ready player may declare it: the hand is then locked and plays itself, "
            "drawing and discarding until it wins. Declaring at your first discard is "
            "heavenly ready (天听)."
        )
    return _(
        "A ready player may declare it: the hand is then locked and plays itself, "
        "drawing and discarding until it wins."
    )


def _dealer(rs) -> str:
    if rs.match_hands:
        return ngettext(
            "The deal passes in turn; a match is %(n)s hand.",
            "The deal passes in turn; a match is %(n)s hands.",
            rs.match_hands,
        ) % {"n": rs.match_hands}
    return {
        "winner": lambda: _(
            "The first dealer is drawn at random; the winner deals the next "
            "hand, and after a draw the dealer stays."
        ),
        "random": lambda: _("Each hand's dealer is drawn at random."),
        "alternate": lambda: _("The deal passes in turn."),
    }[rs.dealer_rule]()


def _escape(rs) -> str:
    if rs.scoring == "wenzhou":
        return _(
            "The player who leaves pays the hand's base B × %(dealer)s as dealer, "
            "B × %(other)s otherwise."
        ) % {"dealer": rs.options.get("dealer_escape_penalty", 16), "other": rs.escape_penalty}
    return _(
        "The player who leaves the hand, or is away for %(seconds)s seconds, pays "
        "%(n)s × base to the opponent."
    ) % {"seconds": rs.timers.escape, "n": rs.escape_penalty}
