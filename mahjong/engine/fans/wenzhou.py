"""wenzhou — 温州二人麻将 (RULES.md 9.4): the hand multiplier is 软 ×1 or 硬 ×2, times 2
for each 双翻 item, capped by the ruleset (8). Fans here multiply."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..shapes import SAN_CAI_SHEN, STANDARD, YING_BA_DUI
from . import predicates as p
from .table import Fan, FanTable

if TYPE_CHECKING:
    from .facts import Facts


def hard(f: Facts) -> bool:
    """硬牌: a self-draw where no 财神 substitutes, or a 三财神 instant win. A self-draw
    holding all three 财神 could be declared as that instant win, so it stays hard when
    it also makes a regular form with wilds standing in (RULES.md 9.4: 2 x 2 = 4)."""
    if f.form == SAN_CAI_SHEN:
        return True
    return f.tsumo and (f.decomp.wilds == 0 or wilds_held(f) == 3)


def wilds_held(f: Facts) -> int:
    wild = f.ctx.wild
    return 0 if wild is None else (*f.ctx.hand, f.ctx.win).count(wild)


FANS = (
    Fan("ying_pai", "硬牌", "Hard win", 2, hard),
    Fan("ruan_pai", "软牌", "Soft win", 1, lambda f: not hard(f)),
    Fan("ying_ba_dui", "硬八对", "Hard eight pairs", 2, lambda f: f.form == YING_BA_DUI),
    Fan(
        "san_cai_shen",
        "三财神",
        "Three wilds",
        2,
        lambda f: f.form == STANDARD and wilds_held(f) == 3,
    ),
    Fan("tian_hu", "天胡", "Heavenly win", 2, p.first_turn(dealer=True, tsumo=True)),
    Fan("di_hu", "地胡", "Earthly win", 2, p.first_turn(dealer=False, tsumo=False)),
    Fan("quan_qiu_ren", "全求人", "Melded hand", 2, p.when("five_melded")),
    Fan("peng_peng_he", "碰碰和", "All pungs", 2, p.all_pungs),
)

TABLE = FanTable("wenzhou", FANS, multiplicative=True)
