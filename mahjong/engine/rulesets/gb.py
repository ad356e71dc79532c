"""gb — 国标麻将 for two players (RULES.md section 8): 144 tiles, 81 fans, 8-fan minimum."""

from types import MappingProxyType

from .base import Ruleset

RULESET = Ruleset(
    slug="gb",
    name_zh="国标麻将",
    name_en="Chinese Official",
    suits="mpsz",
    flowers=True,
    forms=frozenset(
        {
            "standard",
            "seven_pairs",
            "thirteen_orphans",
            "quan_bu_kao",
            "qi_xing_bu_kao",
            "zu_he_long",
        }
    ),
    min_fan=8,
    scoring="gb",
    escape_penalty=96,  # (88 + 8) × 底分
    dealer_rule="alternate",
    match_hands=8,
    options=MappingProxyType({"ming_an_gang": True}),
)
