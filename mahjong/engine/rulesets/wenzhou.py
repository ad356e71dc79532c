"""wenzhou — 温州二人麻将 (RULES.md section 9): 16-tile hands, 财神 wilds, 软/硬 and 双翻."""

from types import MappingProxyType

from .base import Ruleset

RULESET = Ruleset(
    slug="wenzhou",
    name_zh="温州二人麻将",
    name_en="Wenzhou Two-player",
    suits="mpsz",
    flowers=False,
    hand_size=16,
    wilds=True,
    forms=frozenset({"standard", "ying_ba_dui", "san_cai_shen"}),
    cap=8,  # multiplier cap
    scoring="wenzhou",
    escape_penalty=8,  # non-dealer: B × 8; the dealer pays the option below
    dealer_rule="winner",
    base_levels=(10, 20, 30, 40),
    options=MappingProxyType({"dealer_escape_penalty": 16}),
)
