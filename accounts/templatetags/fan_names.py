"""`{{ player.best_hand|fan_names }}`: a player's biggest hand, in the page's language.

tables.services keeps the best hand as its fans' Chinese names joined by "、" (one short
column, set in the settlement's single UPDATE). An English page shows each name's English
from the engine's fan tables; a name they do not know (cut at the column's length) stays
as written.
"""

from functools import cache

from django import template
from django.utils.translation import get_language

from mahjong.engine.fans import TABLES

register = template.Library()


@cache
def _english() -> dict[str, str]:
    # A few names have a synonym in another ruleset's table: the first table's wins.
    names: dict[str, str] = {}
    for table in TABLES.values():
        for fan in table.fans:
            names.setdefault(fan.zh, fan.en)
    return names


@register.filter
def fan_names(text: str) -> str:
    if not text or get_language() != "en":
        return text
    english = _english()
    return ", ".join(english.get(name, name) for name in text.split("、"))
