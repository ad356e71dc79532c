"""classic — 二人麻将 (RULES.md section 4): 72 tiles, 报听, 海底捞月 phase, 13-fan cap."""

from .base import Ruleset

RULESET = Ruleset(
    slug="classic",
    name_zh="二人麻将",
    name_en="Two-player Mahjong",
    suits="mz",
    flowers=True,
    haidi_phase=True,
    haidi_draws=3,
    bao_ting=True,
    tian_ting=True,
    # 国士无双 and loose 绿一色 are in the table but unreachable with 万 + honors.
    forms=frozenset({"standard", "seven_pairs", "thirteen_orphans", "lv_yi_se_loose"}),
    cap=13,
    scoring="classic",
    self_draw_multiplier=3,  # "×3方", kept literally (RULES.md 4.3)
    discard_multiplier=1,
    escape_penalty=13,
    dealer_rule="winner",
)
