"""The fan calculator (算番器): a winning hand typed in notation, scored by the engine
under a ruleset as the operator runs it -- the same ``score_win`` a table's win goes
through. Nothing is stored; a bad field, or a situation the rules cannot have, is said in
the page's language, next to it."""

from __future__ import annotations

import unicodedata
from collections import Counter

from django import forms
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from mahjong.engine.errors import EngineError
from mahjong.engine.fans import score_win, table_for, white_stands_in, wild_reading
from mahjong.engine.melds import parse_melds
from mahjong.engine.shapes import WinContext
from mahjong.engine.tiles import (
    FLOWERS,
    format_tile,
    max_copies,
    parse_tile,
    parse_tiles,
)
from mahjong.ui import render

WINDS = [
    ("1z", gettext_lazy("East")),
    ("2z", gettext_lazy("South")),
    ("3z", gettext_lazy("West")),
    ("4z", gettext_lazy("North")),
]
TING = [
    ("", gettext_lazy("Not declared")),
    ("ready", gettext_lazy("Declared ready (报听)")),
    ("tian_ting", gettext_lazy("Heavenly ready (天听)")),
]
# Melds as a Chinese player writes them (the longer words first: 暗杠 before 杠).
MELD_WORDS = {
    "，": ",",
    "、": ",",
    "暗杠": "ankan ",
    "明杠": "kan ",
    "加杠": "kan ",
    "杠": "kan ",
    "碰": "pon ",
    "吃": "chi ",
}
# The fans a situation can score, by table: a box nobody's fan reads is not offered.
SITUATIONS = {
    "last_tile": {"he_di_lao_yue", "he_di_lao_yu", "miao_shou_hui_chun", "hai_di_lao_yue"},
    "kong_replacement": {"gang_shang_kai_hua"},
    "last_of_kind": {"he_jue_zhang"},
    "first_turn": {"tian_hu", "di_hu", "ren_hu"},
    "dealer": {"tian_hu", "di_hu", "ren_hu"},
    "winds": {"quan_feng_ke", "men_feng_ke"},
}


def _text(label: str, length: int, example: str = "", required: bool = False):
    return forms.CharField(label=label, max_length=length, required=required, help_text=example)


def _box(label: str):
    return forms.BooleanField(label=label, required=False)


class HandForm(forms.Form):
    hand = _text(gettext_lazy("Concealed tiles"), 60, required=True)
    win = _text(gettext_lazy("Winning tile"), 4, gettext_lazy("e.g. 5z"), required=True)
    melds = _text(gettext_lazy("Melds"), 80)
    tsumo = _box(gettext_lazy("Self-drawn (自摸)"))
    last_tile = _box(gettext_lazy("On the last tile of the wall"))
    kong_replacement = _box(gettext_lazy("On a kong's replacement tile"))
    robbing_kong = _box(gettext_lazy("Robbing a kong (抢杠)"))
    last_of_kind = _box(gettext_lazy("The last of its kind (和绝张)"))
    haidi_phase = _box(gettext_lazy("In the extra draws after the wall (海底捞月)"))
    first_turn = _box(gettext_lazy("On the first turn (天和, 地和, 人和)"))
    dealer = _box(gettext_lazy("The winner is the dealer"))
    ting = forms.ChoiceField(label=gettext_lazy("Ready declaration"), choices=TING, required=False)
    flowers = _text(
        gettext_lazy("Flowers"),
        24,
        gettext_lazy(
            "How many, or which: 1f–4f the seasons (春夏秋冬), "
            "5f–8f the plants (梅兰竹菊), e.g. 1f 2f 5f"
        ),
    )
    passes = forms.IntegerField(
        label=gettext_lazy("Wins passed this hand (过胡)"), min_value=0, required=False
    )
    wild = _text(
        gettext_lazy("Wild tile (财神)"),
        4,
        gettext_lazy("The kind the turned-up tile names, e.g. 3m"),
    )
    seat_wind = forms.ChoiceField(label=gettext_lazy("Seat wind"), choices=WINDS, required=False)
    round_wind = forms.ChoiceField(label=gettext_lazy("Round wind"), choices=WINDS, required=False)

    def __init__(self, data, ruleset):
        super().__init__(data)
        self.ruleset = ruleset
        for name in _not_offered(ruleset):
            del self.fields[name]
        suit = ruleset.suits[0]  # the examples in tiles these rules have: 条 only in tiao72
        self.fields["hand"].help_text = _(
            "Without the winning tile, e.g. 123%(s)s 456%(s)s 789%(s)s 1155z."
        ) % {"s": suit}
        self.fields["melds"].help_text = _(
            "e.g. pon 777z, chi 123%(s)s, kan 1111%(s)s, ankan 2222%(s)s"
        ) % {"s": suit}
        if "passes" in self.fields:  # 过胡加倍: at most the ruleset's passes a hand
            self.fields["passes"].validators.append(_at_most(ruleset.max_guo))
            self.fields["passes"].widget.attrs["max"] = ruleset.max_guo

    def clean_hand(self):
        return self._playing(_tiles(self.cleaned_data["hand"]))

    def clean_win(self):
        return self._playing([_tile(self.cleaned_data["win"])])[0]

    def clean_wild(self):
        text = self.cleaned_data.get("wild")
        return self._playing([_tile(text)])[0] if text else None

    def clean_melds(self):
        text = _plain(self.cleaned_data["melds"])
        for word, verb in MELD_WORDS.items():  # 碰 777z，吃 123m: the Chinese page's spelling
            text = text.replace(word, verb)
        try:
            melds = tuple(parse_melds(text)) if text else ()
        except EngineError:
            raise forms.ValidationError(
                _(
                    "Write each meld as “pon 777z”, “chi 123m”, “kan 1111m” or “ankan 2222p”, "
                    "separated by commas."
                )
            ) from None
        self._playing([kind for meld in melds for kind in meld.tiles])
        return melds

    def clean_flowers(self) -> tuple[tuple[int, ...], int]:
        """A number, or the flowers themselves (八仙过海 and 春夏秋冬 need to know which)."""
        text = _plain(self.cleaned_data.get("flowers") or "")
        if text.isdigit():
            if int(text) > len(FLOWERS):
                raise forms.ValidationError(_("At most %(n)s.") % {"n": len(FLOWERS)})
            return (), int(text)
        kinds = _tiles(text) if text else ()
        if any(kind not in FLOWERS for kind in kinds) or len(set(kinds)) != len(kinds):
            raise forms.ValidationError(_("A number, or each flower once, e.g. 1f 2f 5f."))
        return kinds, len(kinds)

    def _playing(self, kinds) -> tuple[int, ...]:
        """The kinds, if these rules play them: a flower or a 筒 in classic is not a tile of
        the hand, said by its name (the engine would only find no win)."""
        for kind in kinds:
            if kind in FLOWERS:
                raise forms.ValidationError(
                    _("Flowers are not part of a hand: give them under Flowers.")
                )
            if kind not in self.ruleset.kinds:
                raise forms.ValidationError(
                    _("%(tile)s is not among these rules' tiles.") % {"tile": _name(kind)}
                )
        return tuple(kinds)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        hand, melds, win = data["hand"], data["melds"], data["win"]
        wanted = self.ruleset.hand_size + 1
        have = len(hand) + 1 + 3 * len(melds)
        if have != wanted:
            raise forms.ValidationError(
                _(
                    "A winning hand here has %(n)s tiles (each meld counts as three): these make "
                    "%(got)s."
                )
                % {"n": wanted, "got": have}
            )
        counts = Counter([*hand, win, *(k for meld in melds for k in meld.tiles)])
        for kind, n in counts.items():
            if n > max_copies(kind):
                raise forms.ValidationError(
                    _("%(tile)s: there are only %(max)s, these have %(n)s.")
                    % {"max": max_copies(kind), "n": n, "tile": _name(kind)}
                )
        for problem in _impossible(data, self.ruleset):
            self.add_error(None, problem)
        return data

    def context(self) -> WinContext:
        data = self.cleaned_data
        fields = {
            name: bool(data.get(name))
            for name in (
                "tsumo",
                "last_tile",
                "kong_replacement",
                "robbing_kong",
                "last_of_kind",
                "haidi_phase",
                "first_turn",
                "dealer",
            )
        }
        flowers, flower_count = data.get("flowers") or ((), 0)
        fields |= {
            "hand": data["hand"],
            "melds": data["melds"],
            "win": data["win"],
            "flowers": flowers,
            "flower_count": flower_count,
            "passes": data.get("passes") or 0,
            "ting": data.get("ting") or False,
            "wild": data.get("wild"),
            "seat_wind": parse_tile(data.get("seat_wind") or "1z"),
            "round_wind": parse_tile(data.get("round_wind") or "1z"),
        }
        return WinContext.of(fields)


def _impossible(data: dict, rs) -> list[str]:
    """What no table can deal: the engine scores the situation it is told, so a 天听 with a
    pung before it would score 32 here and never at a table."""
    melds, ting, tsumo = data["melds"], data.get("ting"), data.get("tsumo")
    said = []
    if data.get("robbing_kong") and tsumo:
        said.append(_("Robbing a kong wins on the opponent's tile: it is not self-drawn."))
    # tiao72 counts a flower's replacement as 杠上开花 too (RULES.md 7.3)
    replaced = any(m.is_kong for m in melds) or (rs.flower_kaihua and data["flowers"][1])
    if data.get("kong_replacement") and not (tsumo and replaced):
        said.append(
            _("A win on a kong's replacement tile is self-drawn, with a kong among the melds.")
        )
    if data.get("haidi_phase") and not tsumo:
        said.append(_("The extra draws after the wall are self-drawn."))
    if ting == "tian_ting" and melds:
        said.append(_("Heavenly ready is declared before any chow, pung or kong."))
    if data.get("first_turn") and (melds or ting):
        said.append(_("A first-turn win comes before any meld or ready declaration."))
    if data.get("passes") and not ting:
        said.append(_("Wins are passed only by a player who declared ready (报听)."))
    return said


def _at_most(limit: int):
    def check(value):
        if value is not None and value > limit:
            raise forms.ValidationError(_("At most %(n)s.") % {"n": limit})

    return check


def _not_offered(rs) -> list[str]:
    """The fields these rules have no use for."""
    keys = {fan.key for fan in table_for(rs).fans}
    off = [name for name, fans in SITUATIONS.items() if not keys & fans]
    if "winds" in off:
        off.remove("winds")
        off += ["seat_wind", "round_wind"]
    off += [
        name
        for name, on in (
            ("ting", rs.bao_ting),
            ("flowers", rs.flowers),
            ("passes", rs.guo_hu),
            ("wild", rs.wilds),
            ("haidi_phase", rs.haidi_phase),
            ("robbing_kong", rs.rob_kong),
        )
        if not on
    ]
    return off


def _plain(text: str) -> str:
    """Full-width digits and capitals typed on a phone read as the notation: １２３Ｍ -> 123m."""
    return unicodedata.normalize("NFKC", text).strip().lower()


def _tiles(text: str) -> tuple[int, ...]:
    try:
        return tuple(parse_tiles(_plain(text).replace(" ", ""), check_copies=False))
    except EngineError:
        raise forms.ValidationError(_("Write the tiles in notation, e.g. 123m 456m 55z.")) from None


def _tile(text: str) -> int:
    tiles = _tiles(text)
    if len(tiles) != 1:
        raise forms.ValidationError(_("One tile, e.g. 5z."))
    return tiles[0]


def _name(kind: int) -> str:
    return render.tile_label(format_tile(kind), get_language() or "zh-hans")


def score(form: HandForm) -> dict:
    """The engine's reading of a valid form: {"fans", "total", "blocks", ...} or {"error"}."""
    rs, ctx = form.ruleset, form.context()
    try:
        result = score_win(rs, ctx)
    except EngineError:
        return {"error": _("These tiles cannot be scored under these rules.")}
    if not result.is_win:
        return {"error": _("These tiles are not a winning hand under these rules.")}
    return {
        "fans": result.fans,
        "total": result.total,
        "doubling": result.doubling,
        # the cap cut the sum (classic's 13); 过胡's doubling is said on its own line
        "before_cap": result.raw_total
        if rs.cap and result.raw_total > rs.cap and not table_for(rs).multiplicative
        else None,
        "below_minimum": result.below_minimum,
        "min_fan": rs.min_fan,
        "soft": result.soft,
        "blocks": _reading(result.decomposition, ctx),
    }


def _reading(decomposition, ctx: WinContext) -> list[list[dict]]:
    """The winning reading, each tile a 财神 plays marked (fans.wild_reading), and each
    白板 playing as the wild's kind."""
    return [
        [
            {
                "tile": format_tile(kind),
                "wild": wild,
                "white": white_stands_in(kind, wild, ctx.wild),
            }
            for kind, wild in block
        ]
        for block in wild_reading(decomposition, ctx)
    ]
