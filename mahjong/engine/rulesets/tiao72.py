"""tiao72 — 72-tile 条子 game (RULES.md section 7): 条 + honors + flowers, GB supplement."""

from types import MappingProxyType

from .base import Ruleset

RULESET = Ruleset(
    slug="tiao72",
    name_zh="条子七十二张",
    name_en="72-tile Bamboo",
    suits="sz",
    flowers=True,
    bao_ting=True,
    tian_ting=True,
    locked_addkan=True,  # "只能摸牌、胡牌或上杠"
    flower_kaihua=True,  # a win on a flower replacement is 杠上开花 here (7.3)
    forms=frozenset({"standard", "seven_pairs"}),
    scoring="tiao72",
    escape_penalty=60,
    dealer_rule="winner",
    options=MappingProxyType({"gb_supplement": True}),
)
