"""stage — 关卡 single-player climb (RULES.md section 5): classic rules on 71 of 136 tiles."""

from types import MappingProxyType

from .base import Ruleset

RULESET = Ruleset(
    slug="stage",
    name_zh="关卡模式",
    name_en="Stage mode",
    suits="mpsz",
    flowers=False,
    playing_tiles=71,
    haidi_phase=True,
    haidi_draws=3,  # 5 from stage 2 on (五张海底摸牌)
    bao_ting=True,
    tian_ting=True,
    forms=frozenset({"standard", "seven_pairs", "thirteen_orphans", "lv_yi_se_loose"}),
    cap=13,
    scoring="stage",
    escape_penalty=0,
    dealer_rule="winner",
    options=MappingProxyType(
        {
            "p_cuo": 0.10,  # 搓牌 offer per front draw (stage 3+)
            "p_swap": 0.05,  # 游戏中换牌 triplet offer per front draw (stage 3+)
            "p_bleed": 0.10,  # regular 配牌大出血 (stage 3+)
            "p_bleed_yakuman": 0.05,  # yakuman 配牌大出血 (stage 4)
        }
    ),
)
