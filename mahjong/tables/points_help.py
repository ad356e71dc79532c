""" "How points are counted" under a hand's result: each ruleset's payment formula (RULES.md
4.3, 5.3, 6.3, 7.2, 8.5, 9.5) in the player's words, with this table's numbers -- the
ruleset's multipliers, cap and rake as the operator set them, the room's 底分 and beans
per point -- so the line above it can be checked by hand."""

from __future__ import annotations

from django.utils.translation import gettext as _

from mahjong.engine.settlement import GB_BONUS_FAN, STAGE_STREAK_BONUS_FROM, STAGE_YAKUMAN_SCORE

STAGE_PLAYER = 0  # 关卡: the player sits at seat 0, the computer at seat 1


def lines(table, ruleset, winner: int | None = None) -> list[str]:
    """The formula's lines for ``table`` played under the engine ``ruleset``; a 关卡
    hand the computer won scores by no formula (RULES.md 5.3)."""
    if ruleset.scoring == "stage" and winner not in (None, STAGE_PLAYER):
        return [_("The computer's win scores nothing: you lose only the hand's stake.")]
    said = formula(ruleset, table.base_points)
    if table.beans_per_point:
        said.append(_("Beans: points × %(n)s.") % {"n": table.beans_per_point})
    return said


def formula(ruleset, base: int) -> list[str]:
    """The payment formula at a base of ``base`` points, and the cap: the rule book
    (mahjong.rulebook) says it without a table."""
    said = _FORMULAS[ruleset.scoring](ruleset, base)
    if ruleset.cap and ruleset.scoring == "wenzhou":  # its items multiply (RULES.md 9.4)
        said.append(_("The multiplier counted is at most %(cap)s.") % {"cap": ruleset.cap})
    elif ruleset.cap:  # 关卡 too: the fan in fan × (fan + 1) × 50 is capped (RULES.md 5.3)
        said.append(_("The fan counted is at most %(cap)s.") % {"cap": ruleset.cap})
    return said


def _classic(rs, base) -> list[str]:
    return [
        _("Self-drawn (自摸) or robbing a kong: total fan × %(n)s × base %(base)s.")
        % {"n": rs.self_draw_multiplier, "base": base},
        _("On a discard (点炮): total fan × %(n)s × base %(base)s.")
        % {"n": rs.discard_multiplier, "base": base},
    ]


def _fan_times_base(rs, base) -> list[str]:
    return [_("Self-drawn or on a discard: total fan × base %(base)s.") % {"base": base}]


def _gb(rs, base) -> list[str]:
    return [
        _("Self-drawn or on a discard: (total fan + %(bonus)s) × base %(base)s.")
        % {"bonus": GB_BONUS_FAN, "base": base}
    ]


def _quesheng(rs, base) -> list[str]:
    said = _fan_times_base(rs, base)
    said.append(
        _("Nobody wins or loses more than either player brought to the table (防以小博大).")
    )
    if rs.rake_percent:
        said.append(
            _("The house takes %(percent)s%% of the amount won.") % {"percent": rs.rake_percent}
        )
    return said


def _wenzhou(rs, base) -> list[str]:
    levels = " / ".join(str(base * level) for level in rs.base_levels)
    return [
        _("Self-drawn or on a discard: total multiplier × the hand's base B."),
        _(
            "B is %(levels)s: the dealer's first hand, then one level up for each win that "
            "keeps the deal (进阶分)."
        )
        % {"levels": levels},
    ]


def _stage(rs, base) -> list[str]:
    return [
        _("Your win scores fan × (fan + 1) × 50, or %(yakuman)s for each yakuman (役满).")
        % {"yakuman": STAGE_YAKUMAN_SCORE},
        _("From the dealer's win number %(n)s in a row (三连庄) on, the score is doubled.")
        % {"n": STAGE_STREAK_BONUS_FROM},
    ]


_FORMULAS = {
    "classic": _classic,
    "tiao72": _fan_times_base,
    "gb": _gb,
    "quesheng": _quesheng,
    "wenzhou": _wenzhou,
    "stage": _stage,
}
