"""quesheng — 二人雀神 (RULES.md section 6): 88-to-1 fan table, 过胡加倍, 5% rake."""

from .base import Ruleset

RULESET = Ruleset(
    slug="quesheng",
    name_zh="二人雀神",
    name_en="Mahjong Master (two-player)",
    suits="mz",
    flowers=True,
    bao_ting=True,
    tian_ting=True,
    guo_hu=True,
    max_guo=3,
    forms=frozenset({"standard", "seven_pairs"}),
    scoring="quesheng",
    rake_percent=5,
    escape_penalty=88,  # settled as a loss to an 88-fan hand
    dealer_rule="random",
)
