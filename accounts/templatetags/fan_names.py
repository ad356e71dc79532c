"""`{{ player.best_fans|fan_names }}`: a player's biggest hand, its fans named in the page's
language (tables.services keeps their keys: ``User.best_fans``)."""

from functools import cache

from django import template
from django.utils.translation import get_language

from mahjong.engine.fans import TABLES

register = template.Library()


@cache
def _names() -> dict[str, tuple[str, str]]:
    """Each fan key's Chinese and English names (a key two tables share: the first's)."""
    names: dict[str, tuple[str, str]] = {}
    for table in TABLES.values():
        for fan in table.fans:
            names.setdefault(fan.key, (fan.zh, fan.en))
    return names


@register.filter
def fan_names(keys: list[str]) -> str:
    if not keys:
        return ""
    english = get_language() == "en"
    names = _names()
    shown = [names[key][english] if key in names else key for key in keys]
    return ", ".join(shown) if english else "、".join(shown)
